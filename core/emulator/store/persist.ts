// The optional data file: locked for the emulator's lifetime (a second emulator on it is refused),
// read once at start, rewritten atomically (temp file, fsync, rename) after changes. Writes are
// serialised and coalesced, so concurrent requests never lose a write and a kill at any moment
// leaves either the old or the new complete file (and a temp file the next start removes). An API
// change is written before its answer; call progress, which nobody waits for, within a second, or
// for a file so large that writing it takes more than a tenth of that, within ten writes' time.
// The file is compact JSON: a pretty-printed one is half as large again and three times as slow to make.
import { readFile } from 'node:fs/promises';
import { acquireFileLock, FileLockedError, removeStaleTempFiles, writeFileAtomic } from '../../fs/locked-json.js';
import type { HeldLock } from '../../fs/locked-json.js';
import type { Rec, Snapshot } from './store.js';
import { DataFileError, DataFileInUseError } from '../errors.js';

export { DataFileError, DataFileInUseError };

/** Call progress waits at least this many times as long as the last write took, so writing stays a small share of the emulator's time. */
const LAZY_WRITES_APART = 10;

/**
 * Locks the data file for as long as the emulator runs and removes temp files a killed emulator
 * left (their count is returned). A live holder is refused at once with DataFileInUseError; a
 * killed one's lock is taken over once stale (a few seconds).
 */
export async function lockDataFile(file: string, onLost: (err: Error) => void): Promise<{ lock: HeldLock; removedTempFiles: number }> {
  let lock: HeldLock;
  try {
    lock = await acquireFileLock(file, { failFast: true, onLost });
  } catch (err) {
    if (err instanceof FileLockedError) throw new DataFileInUseError(file);
    throw new DataFileError(file, `cannot be written (${(err as Error).message})`);
  }
  const removed = await removeStaleTempFiles(file);
  return { lock, removedTempFiles: removed.length };
}

function isRecList(value: unknown): value is Rec[] {
  return Array.isArray(value) && value.every((r) => r !== null && typeof r === 'object' && typeof (r as Rec).id === 'string' && typeof (r as Rec).createdAt === 'string');
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

/** What a data file writer reports: a write that failed (once per episode) and the first write after. */
export interface WriterEvents {
  /** Writing failed (a full disk, a read-only folder); the changes stay in memory and writing is retried. */
  onTrouble?(err: Error): void;
  /** A write succeeded after trouble: the file again holds everything. */
  onRecovered?(): void;
}

/**
 * Writes snapshots to the data file, one write at a time, batching whoever waits. When a write
 * fails (ENOSPC, EACCES), it says so once, keeps retrying every `retryMs`, and says when the file
 * is whole again: the emulator serves on in the meantime, with every change in memory.
 */
export class DataFileWriter {
  private waiting: Waiter[] = [];
  private running: Promise<void> | undefined;
  private trouble: Error | undefined;
  private retry: NodeJS.Timeout | undefined;
  private lazy: NodeJS.Timeout | undefined;
  private lastWriteMs = 0;

  constructor(
    private readonly file: string,
    /** The file's whole contents (the store's snapshot as JSON). */
    private readonly contents: () => string | Uint8Array,
    private readonly events: WriterEvents = {},
    private readonly retryMs = 1000,
  ) {}

  /** The error of the last write when it failed (cleared by the next successful write). */
  get problem(): Error | undefined {
    return this.trouble;
  }

  /** Resolves once a write that includes every change made before the call has landed. */
  flush(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      // Defer one turn so every request handled in this turn shares a single write.
      this.running ??= new Promise<void>((done) => setImmediate(done)).then(() => this.drain());
    });
  }

  /**
   * Asks for a write within `lazyMs` (call progress, which no answer waits for): a busy emulator
   * then rewrites a large file about once a second instead of after every status change, and less
   * often when one write takes more than a tenth of that.
   */
  soon(lazyMs = 1000): void {
    this.lazy ??= setTimeout(() => this.writeLazy(), Math.max(lazyMs, LAZY_WRITES_APART * this.lastWriteMs));
  }

  private writeLazy(): void {
    this.lazy = undefined;
    this.flush().catch(() => undefined);
  }

  /** Waits for the writes in flight, and writes now what `soon()` was holding back. */
  async idle(): Promise<void> {
    if (this.lazy) {
      clearTimeout(this.lazy);
      this.writeLazy();
    }
    while (this.running) await this.running;
  }

  /** Stops retrying (the emulator is closing). */
  stop(): void {
    clearTimeout(this.retry);
    clearTimeout(this.lazy);
    this.retry = undefined;
    this.lazy = undefined;
  }

  private async drain(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting;
      this.waiting = [];
      const t0 = performance.now();
      try {
        await writeFileAtomic(this.file, this.contents());
        this.lastWriteMs = performance.now() - t0;
        for (const w of batch) w.resolve();
        if (this.trouble) {
          this.trouble = undefined;
          this.events.onRecovered?.();
        }
      } catch (err) {
        for (const w of batch) w.reject(err);
        if (!this.trouble) this.events.onTrouble?.(err as Error);
        this.trouble = err as Error;
        this.retry ??= setTimeout(() => {
          this.retry = undefined;
          this.flush().catch(() => undefined);
        }, this.retryMs).unref();
      }
    }
    this.running = undefined;
  }
}
