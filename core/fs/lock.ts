// Cross-process file locks, on proper-lockfile: an atomic `mkdir` of `<file>.lock` whose mtime the
// holder refreshes every second, so a lock whose holder was killed goes stale after STALE_MS and
// the next process takes it over. proper-lockfile is loaded only when a lock is first taken.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { LockOptions } from 'proper-lockfile';
import { VoiceError } from '../errors.js';

/** A lock not refreshed for this long belongs to a process that is gone (killed, crashed). */
export const STALE_MS = 5_000;
const UPDATE_MS = 1_000;

/** The file is locked by another live process. */
export class FileLockedError extends VoiceError {
  readonly code = 'ELOCKED';
  constructor(readonly file: string) {
    super(`${file} is in use by another process.`);
    this.name = 'FileLockedError';
  }
}

/** A lock this process holds. */
export interface HeldLock {
  /** Releases the lock (idempotent). */
  release(): Promise<void>;
  /** True once the lock was lost (its lock folder removed or taken over while we held it). */
  readonly lost: boolean;
}

/** How to take a lock. */
export interface AcquireOptions {
  /**
   * How long to wait for the holder, in ms (default 20 s, long enough to take over a stale lock).
   * With `failFast`, a holder seen alive fails at once, and only a dead holder is waited for.
   */
  waitMs?: number;
  /** Fail with FileLockedError as soon as the holder is seen refreshing its lock (a live process). */
  failFast?: boolean;
  /** Called if the lock is lost while held (default: remembered in `lost`). */
  onLost?: (err: Error) => void;
}

type LockFn = (file: string, options?: LockOptions) => Promise<() => Promise<void>>;
let lockFn: Promise<LockFn> | undefined;
function loadLock(): Promise<LockFn> {
  return (lockFn ??= import('proper-lockfile').then((m) => (m.default ?? m).lock));
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function lockMtime(file: string): Promise<number | undefined> {
  return stat(`${file}.lock`).then(
    (s) => s.mtimeMs,
    () => undefined,
  );
}

/** Takes the cross-process lock of `path` (the file itself need not exist; its folder must). */
export async function acquireFileLock(path: string, options: AcquireOptions = {}): Promise<HeldLock> {
  const file = resolve(path);
  const lock = await loadLock();
  const deadline = Date.now() + (options.waitMs ?? (options.failFast ? STALE_MS + 2_000 : 20_000));
  let lost = false;
  const onCompromised = (err: Error): void => {
    lost = true;
    options.onLost?.(err);
  };
  let firstMtime: number | undefined;
  for (let delay = 5; ; delay = Math.min(delay * 1.5, 200)) {
    try {
      const release = await lock(file, { realpath: false, stale: STALE_MS, update: UPDATE_MS, retries: 0, onCompromised });
      let released = false;
      return {
        get lost() {
          return lost;
        },
        release: async () => {
          if (released) return;
          released = true;
          // A lost lock is no longer ours to remove.
          await release().catch(() => undefined);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      if (options.failFast) {
        const mtime = await lockMtime(file);
        // The holder refreshed its lock while we watched: it is alive.
        if (firstMtime !== undefined && mtime !== undefined && mtime !== firstMtime) throw new FileLockedError(file);
        firstMtime ??= mtime;
      }
      if (Date.now() >= deadline) throw new FileLockedError(file);
      await sleep(delay + Math.random() * delay);
    }
  }
}

/** Runs `fn` while holding the lock of `path`; the lock is released however `fn` ends. */
export async function withFileLock<T>(path: string, fn: (lock: HeldLock) => Promise<T>, options: AcquireOptions = {}): Promise<T> {
  const held = await acquireFileLock(path, options);
  try {
    return await fn(held);
  } finally {
    await held.release();
  }
}
