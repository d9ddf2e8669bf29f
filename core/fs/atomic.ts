// Atomic whole-file replacement, and the clean-up of temp files a killed writer left behind.
// A temp file lives beside its target (same file system, so the rename is atomic) and is named
// `.<name>.<pid>.<random>.tmp`, which is how a later writer recognises and removes leftovers.
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

function tempPrefix(path: string): string {
  return `.${basename(path)}.`;
}

/** Replaces a file's contents atomically: temp file in the same folder, fsync, rename. Keeps the file's mode (or uses `mode` for a new file). */
export async function writeFileAtomic(path: string, contents: string | Uint8Array, mode?: number): Promise<void> {
  const temp = join(dirname(path), `${tempPrefix(path)}${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fileMode =
    mode ??
    (await stat(path).then(
      (s) => s.mode & 0o777,
      () => 0o644,
    ));
  const handle = await open(temp, 'wx', fileMode);
  try {
    await handle.writeFile(contents, typeof contents === 'string' ? 'utf8' : undefined);
    // open() applies the umask; an explicit mode (e.g. 0600 for secrets) must hold exactly.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    await rename(temp, path);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

/**
 * Removes the temp files of `path` that writers killed mid-write (`kill -9`) left behind.
 * Call it only while holding the file's lock: then no live writer owns any of them.
 */
export async function removeStaleTempFiles(path: string): Promise<string[]> {
  const prefix = tempPrefix(path);
  const dir = dirname(path);
  const names = await readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((n) => n.startsWith(prefix) && /^\d+\.[0-9a-f]+\.tmp$/.test(n.slice(prefix.length)));
  await Promise.all(stale.map((n) => unlink(join(dir, n)).catch(() => undefined)));
  return stale.map((n) => join(dir, n));
}
