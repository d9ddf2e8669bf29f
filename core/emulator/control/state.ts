// The emulator's states: the starting state (imported, seeded, applied) a reset returns to, named
// snapshots saved and restored while it runs, and the export written on exit. A reset or restore
// first cancels the calls in flight silently (nothing is delivered after it), then swaps the
// store's contents in place and forgets the record, so it takes milliseconds, not a restart.
import type { CallRunner } from '../calls/index.js';
import type { EmulatorRecord } from '../store/record.js';
import type { Snapshot, Store } from '../store/store.js';

/** What a reset or restore did. */
export interface ResetResult {
  /** Calls that were running and were cancelled. */
  cancelledCalls: number;
  /** Objects in the store afterwards. */
  objects: number;
  /** Milliseconds it took. */
  ms: number;
}

/** The id -> UUID map of a configuration-as-code folder applied at start, by kind (`assistants`, `tools`...). */
export type AppliedIds = Record<string, Record<string, string>>;

/** What the states work on. */
export interface StateDeps {
  store: Store;
  /** What runs on its own (the calls, and the campaigns beside them): a reset cancels it silently. */
  runner: Pick<CallRunner, 'cancelAll'>;
  record: EmulatorRecord;
  /** Asks for the data file to be written. */
  persist: () => void;
  /** Called once the store holds the state returned to (what runs on its own starts again from it). */
  loaded?: () => void;
}

/** A deep copy of the store's contents (objects are mutated in place by calls and updates). */
function copy(snapshot: Snapshot): Snapshot {
  return structuredClone(snapshot);
}

function count(snapshot: Snapshot): number {
  let n = 0;
  for (const recs of Object.values(snapshot.collections)) n += recs.length;
  return n;
}

/** Starting state, named snapshots, reset and export of one emulator. */
export class EmulatorStates {
  private baseline: Snapshot;
  private readonly named = new Map<string, Snapshot>();
  /** Set by `voice dev --apply`: which file id became which UUID. */
  applied: AppliedIds = {};

  constructor(private readonly deps: StateDeps) {
    this.baseline = copy(deps.store.snapshot());
  }

  /** Makes the current contents the state a reset returns to (after importing, seeding and applying). */
  markStart(): void {
    this.baseline = copy(this.deps.store.snapshot());
  }

  /** Everything now, as a data file holds it (a copy, safe to write while calls run). */
  export(): Snapshot {
    return copy(this.deps.store.snapshot());
  }

  /** Cancels the calls in flight and returns to the starting state. */
  reset(): ResetResult {
    return this.load(this.baseline);
  }

  /** Saves the current contents under a name (replacing one of the same name). */
  save(name: string): { name: string; objects: number } {
    const snap = this.export();
    this.named.set(name, snap);
    return { name, objects: count(snap) };
  }

  /** Cancels the calls in flight and returns to a named snapshot; undefined when there is none. */
  restore(name: string): ResetResult | undefined {
    const snap = this.named.get(name);
    return snap ? this.load(snap) : undefined;
  }

  /** The names of the saved snapshots. */
  names(): string[] {
    return [...this.named.keys()];
  }

  private load(from: Snapshot): ResetResult {
    const started = performance.now();
    const cancelledCalls = this.deps.runner.cancelAll();
    const next = copy(from);
    this.deps.store.restore(next);
    this.deps.record.clear();
    this.deps.loaded?.();
    this.deps.persist();
    return { cancelledCalls, objects: count(next), ms: Math.round((performance.now() - started) * 100) / 100 };
  }
}
