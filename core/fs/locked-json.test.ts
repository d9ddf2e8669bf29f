import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock, FileLockedError, updateJsonFile } from './locked-json.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voice-locked-json-'));
  file = join(dir, 'state.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('updateJsonFile', () => {
  it('serialises concurrent updates: 40 increments give 40', async () => {
    await Promise.all(Array.from({ length: 40 }, () => updateJsonFile<{ n: number }>(file, (v) => ({ n: (v?.n ?? 0) + 1 }))));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ n: 40 });
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('writes nothing when the change throws, and refuses a file its parser refuses', async () => {
    writeFileSync(file, '{"n": 1}');
    await expect(
      updateJsonFile(file, () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    const parse = () => {
      throw new Error('bad file');
    };
    await expect(updateJsonFile(file, () => ({ n: 2 }), { parse })).rejects.toThrow('bad file');
    expect(readFileSync(file, 'utf8')).toBe('{"n": 1}');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('creates the folder and sets modes when asked', async () => {
    const nested = join(dir, 'cfg', 'c.json');
    await updateJsonFile(nested, () => ({ a: 1 }), { mode: 0o600, dirMode: 0o700 });
    expect(statSync(nested).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'cfg')).mode & 0o777).toBe(0o700);
  });

  it('removes temp files left by killed writers only under the lock, and waits for a held lock', async () => {
    writeFileSync(join(dir, '.state.json.4242.deadbeef.tmp'), '{"n":');
    const held = await acquireFileLock(file);
    // While another holds the lock nothing is touched: a writer that gives up leaves the folder as it was.
    await expect(updateJsonFile(file, () => ({ n: 1 }), { waitMs: 50 })).rejects.toBeInstanceOf(FileLockedError);
    expect(readdirSync(dir)).toContain('.state.json.4242.deadbeef.tmp');
    let released = false;
    const pending = updateJsonFile<{ n: number; afterRelease: boolean }>(file, (v) => ({ n: (v?.n ?? 0) + 1, afterRelease: released }));
    released = true;
    await held.release();
    expect(await pending).toEqual({ n: 1, afterRelease: true });
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('gives up with FileLockedError after waitMs, and failFast sees a live holder before any deadline', async () => {
    const held = await acquireFileLock(file);
    try {
      await expect(updateJsonFile(file, () => 1, { waitMs: 200 })).rejects.toBeInstanceOf(FileLockedError);
      // A minute to wait: failing before then can only come from seeing the holder refresh its lock.
      await expect(acquireFileLock(file, { failFast: true, waitMs: 60_000 })).rejects.toBeInstanceOf(FileLockedError);
    } finally {
      await held.release();
    }
  }, 30_000);
});
