// The local visitors file: a JSON array of visitors, the same file `voice demo` serves.
// Every write goes to a temp file in the same directory and is renamed over the original, so a
// crash never leaves half a file; a file we cannot parse is reported, never overwritten.
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { VisitorError } from './errors.js';
import { parseVisitor } from './model.js';
import type { Visitor, VisitorPatch } from './model.js';
import type { VisitorStore } from './store.js';

/** The file used when none is named: `visitors.json` in the current directory. */
export const DEFAULT_VISITORS_FILE = 'visitors.json';

/** Reads a visitors file; a missing file is an empty list, anything unreadable is a `corrupt` error. */
export async function readVisitorsFile(path: string): Promise<Visitor[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new VisitorError('store', `Cannot read ${path}: ${(err as Error).message}`);
  }
  const hint = 'Fix or move the file; it was left unchanged.';
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new VisitorError('corrupt', `${path} is not valid JSON (${(err as Error).message}).`, hint);
  }
  if (!Array.isArray(data)) throw new VisitorError('corrupt', `${path} must hold a JSON array of visitors.`, hint);
  try {
    return data.map((item, i) => parseVisitor(item, false, path, i));
  } catch (err) {
    throw new VisitorError('corrupt', (err as Error).message, hint);
  }
}

/** Replaces a file's contents atomically: temp file in the same directory, fsync, rename. */
export async function writeFileAtomic(path: string, contents: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const mode = await stat(path).then((s) => s.mode & 0o777, () => 0o644);
  const handle = await open(temp, 'wx', mode).catch((err: Error) => {
    throw new VisitorError('store', `Cannot write ${path}: ${err.message}`);
  });
  try {
    await handle.writeFile(contents, 'utf8');
    await handle.sync();
    await handle.close();
    await rename(temp, path);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw new VisitorError('store', `Cannot write ${path}: ${(err as Error).message}`);
  }
}

/** A VisitorStore over a local JSON file. */
export class FileVisitorStore implements VisitorStore {
  readonly hosted = false;
  constructor(readonly location: string) {}

  list(): Promise<Visitor[]> {
    return readVisitorsFile(this.location);
  }

  async get(slug: string): Promise<Visitor | undefined> {
    return (await this.list()).find((v) => v.slug === slug);
  }

  async create(visitors: Visitor[]): Promise<Visitor[]> {
    const all = await this.list();
    const taken = visitors.filter((v) => all.some((w) => w.slug === v.slug)).map((v) => v.slug);
    if (taken.length > 0) {
      throw new VisitorError('exists', `Visitor ${taken.join(', ')} already exists in ${this.location}.`, 'Use `voice visitor update` to change it.');
    }
    const added = visitors.map(({ slug, name, system, first_message }) => ({ slug, name, system, first_message }));
    await this.save([...all, ...added]);
    return added;
  }

  async update(patches: VisitorPatch[]): Promise<Visitor[]> {
    const all = await this.list();
    this.requireAll(all, patches.map((p) => p.slug));
    const changed: Visitor[] = [];
    const next = all.map((v) => {
      const patch = patches.find((p) => p.slug === v.slug);
      if (!patch) return v;
      const updated = { ...v, ...patch };
      changed.push(updated);
      return updated;
    });
    await this.save(next);
    return patches.map((p) => changed.find((v) => v.slug === p.slug) as Visitor);
  }

  async delete(slugs: string[]): Promise<void> {
    const all = await this.list();
    this.requireAll(all, slugs);
    await this.save(all.filter((v) => !slugs.includes(v.slug)));
  }

  private requireAll(all: Visitor[], slugs: string[]): void {
    const missing = slugs.filter((s) => !all.some((v) => v.slug === s));
    if (missing.length > 0) throw new VisitorError('not-found', `No visitor ${missing.join(', ')} in ${this.location}.`, 'See `voice visitor list`.');
  }

  private save(visitors: Visitor[]): Promise<void> {
    return writeFileAtomic(this.location, `${JSON.stringify(visitors, null, 2)}\n`);
  }
}
