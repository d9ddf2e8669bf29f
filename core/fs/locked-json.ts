// Read-modify-write of a JSON file that any number of processes may update at once: under the
// file's cross-process lock, read, apply the change, write atomically. Nothing is lost (each
// change sees the one before) and nothing is torn (a reader sees the old or the new file).
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { removeStaleTempFiles, writeFileAtomic } from './atomic.js';
import { withFileLock } from './lock.js';
import { VoiceError } from '../errors.js';

export { removeStaleTempFiles, writeFileAtomic } from './atomic.js';
export { acquireFileLock, FileLockedError, STALE_MS, withFileLock } from './lock.js';
export type { AcquireOptions, HeldLock } from './lock.js';

/** How `updateJsonFile` reads, writes and waits. */
export interface UpdateJsonOptions<T> {
  /** Turns the file's text into a value; throw to refuse a bad file (it is then left untouched). Default: JSON.parse. */
  parse?: (text: string, path: string) => T;
  /** Turns the value into the file's text. Default: JSON with 2-space indents and a final newline. */
  format?: (value: T) => string;
  /** Mode of the written file (default: keep the file's, 0644 for a new one). */
  mode?: number;
  /** Create the folder when missing, with this mode (and set it on an existing one). */
  dirMode?: number;
  /** How long to wait for other writers, in ms (default 20 s; a killed writer's lock is taken over after a few seconds). */
  waitMs?: number;
}

/** Reads a JSON file without locking (atomic writes mean a reader never sees half a file); undefined when missing or empty. */
export async function readJsonFile<T>(path: string, parse: (text: string, path: string) => T = (t) => JSON.parse(t) as T): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return text.trim() ? parse(text, path) : undefined;
}

/**
 * Updates a JSON file safely across processes: takes the file's lock, removes temp files that
 * killed writers left, reads the current value (undefined when there is no file), applies `fn`
 * and writes the result atomically. If `fn` throws, nothing is written. Resolves to the value written.
 */
export async function updateJsonFile<T>(path: string, fn: (current: T | undefined) => T | Promise<T>, options: UpdateJsonOptions<T> = {}): Promise<T> {
  if (options.dirMode !== undefined) {
    await mkdir(dirname(path), { recursive: true, mode: options.dirMode });
    await chmod(dirname(path), options.dirMode);
  }
  return withFileLock(
    path,
    async (lock) => {
      await removeStaleTempFiles(path);
      const next = await fn(await readJsonFile(path, options.parse));
      const text = options.format ? options.format(next) : `${JSON.stringify(next, null, 2)}\n`;
      if (lock.lost) throw new VoiceError(`Lost the lock on ${path} while updating it; nothing was written. Try again.`);
      await writeFileAtomic(path, text, options.mode);
      return next;
    },
    { waitMs: options.waitMs },
  );
}
