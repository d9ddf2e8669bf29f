// The optional data file: read once at start, rewritten atomically (temp file + rename)
// after changes. Writes are serialised and coalesced, so concurrent requests never lose a
// write and a kill at any moment leaves either the old or the new complete file.
import { readFile, rename, writeFile, unlink } from 'node:fs/promises';
import type { Rec, Snapshot } from './store.js';

/** A data file that cannot be used; the file is left exactly as it was. */
export class DataFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`Data file ${file} ${reason}. Nothing was written to it; fix it, move it away, or pass another data file.`);
    this.name = 'DataFileError';
  }
}

function isRecList(value: unknown): value is Rec[] {
  return (
    Array.isArray(value) &&
    value.every((r) => r !== null && typeof r === 'object' && typeof (r as Rec).id === 'string' && typeof (r as Rec).createdAt === 'string')
  );
}

/** Reads a data file; undefined when it does not exist or is empty. */
export async function loadDataFile(file: string): Promise<Snapshot | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DataFileError(file, `cannot be read (${(err as Error).message})`);
  }
  if (!text.trim()) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DataFileError(file, `is not valid JSON (${(err as Error).message})`);
  }
  const snap = data as Partial<Snapshot> | null;
  if (!snap || typeof snap !== 'object' || snap.format !== 'voice-emulator' || typeof snap.collections !== 'object' || snap.collections === null) {
    throw new DataFileError(file, 'is not an emulator data file (expected {"format": "voice-emulator", ...})');
  }
  for (const [name, recs] of Object.entries(snap.collections)) {
    if (!isRecList(recs)) throw new DataFileError(file, `has a broken collection "${name}" (every object needs an id and a createdAt)`);
  }
  if (typeof snap.orgId !== 'string' || typeof snap.userId !== 'string') throw new DataFileError(file, 'has no orgId or userId');
  return snap as Snapshot;
}

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/** Writes snapshots to the data file, one write at a time, batching whoever waits. */
export class DataFileWriter {
  private waiting: Waiter[] = [];
  private running: Promise<void> | undefined;
  private readonly tmp: string;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => Snapshot,
  ) {
    this.tmp = `${file}.tmp-${process.pid}`;
  }

  /** Resolves once a write that includes every change made before the call has landed. */
  flush(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      // Defer one turn so every request handled in this turn shares a single write.
      this.running ??= new Promise<void>((done) => setImmediate(done)).then(() => this.drain());
    });
  }

  /** Waits for the writes in flight. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        await writeFile(this.tmp, JSON.stringify(this.snapshot(), null, 2));
        await rename(this.tmp, this.file);
        for (const w of batch) w.resolve();
      } catch (err) {
        await unlink(this.tmp).catch(() => undefined);
        for (const w of batch) w.reject(err);
      }
    }
    this.running = undefined;
  }
}
