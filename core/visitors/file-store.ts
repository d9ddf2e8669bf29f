// The local visitors file: a JSON array of visitors, the same file `voice demo` serves.
// Every change is a locked read-modify-write (core/fs/locked-json): concurrent `voice visitor`
// processes never lose each other's visitors, a crash never leaves half a file, and a file we
// cannot parse is reported, never overwritten.
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { FileLockedError, updateJsonFile, writeFileAtomic as writeAtomic } from '../fs/locked-json.js';
import { VisitorError } from './errors.js';
import { parseVisitorsFile } from './model.js';
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
  return text.trim() ? parseVisitorsFile(text, path) : [];
}

/** Replaces a file's contents atomically: temp file in the same directory, fsync, rename. */
export async function writeFileAtomic(path: string, contents: string): Promise<void> {
  await writeAtomic(path, contents).catch((err: Error) => {
    throw new VisitorError('store', `Cannot write ${path}: ${err.message}`);
  });
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
    const added = visitors.map(({ slug, name, system, first_message }) => ({ slug, name, system, first_message }));
    await this.change((all) => {
      const taken = visitors.filter((v) => all.some((w) => w.slug === v.slug)).map((v) => v.slug);
      if (taken.length > 0) {
        throw new VisitorError('exists', `Visitor ${taken.join(', ')} already exists in ${this.location}.`, 'Use `voice visitor update` to change it.');
      }
      return [...all, ...added];
    });
    return added;
  }

  async update(patches: VisitorPatch[]): Promise<Visitor[]> {
    const changed: Visitor[] = [];
    await this.change((all) => {
      this.requireAll(
        all,
        patches.map((p) => p.slug),
      );
      return all.map((v) => {
        const patch = patches.find((p) => p.slug === v.slug);
        if (!patch) return v;
        const updated = { ...v, ...patch };
        changed.push(updated);
        return updated;
      });
    });
    return patches.map((p) => changed.find((v) => v.slug === p.slug) as Visitor);
  }

  async delete(slugs: string[]): Promise<void> {
    await this.change((all) => {
      this.requireAll(all, slugs);
      return all.filter((v) => !slugs.includes(v.slug));
    });
  }

  private requireAll(all: Visitor[], slugs: string[]): void {
    const missing = slugs.filter((s) => !all.some((v) => v.slug === s));
    if (missing.length > 0) throw new VisitorError('not-found', `No visitor ${missing.join(', ')} in ${this.location}.`, 'See `voice visitor list`.');
  }

  /** One locked read-modify-write of the file; `fn` sees the latest list, whoever wrote it. */
  private async change(fn: (all: Visitor[]) => Visitor[]): Promise<void> {
    try {
      await updateJsonFile<Visitor[]>(this.location, (all) => fn(all ?? []), { parse: parseVisitorsFile });
    } catch (err) {
      if (err instanceof VisitorError) throw err;
      if (err instanceof FileLockedError) {
        throw new VisitorError('store', `${this.location} stayed locked by another process.`, `If no other \`voice visitor\` is running, remove ${this.location}.lock and try again.`);
      }
      throw new VisitorError('store', `Cannot write ${this.location}: ${(err as Error).message}`);
    }
  }
}

/**
 * A visitors file kept in memory and re-read when it changes on disk, for servers that answer
 * many reads (the local PostgREST stand-in, the Call Me webhook): `voice visitor` edits show up
 * live, and a broken edit keeps the last good copy.
 */
export class LiveVisitorsFile {
  private rows: Visitor[];
  private mtimeMs: number;

  /** Reads the file now; throws a VisitorError when it is missing or malformed. */
  constructor(readonly file: string) {
    this.mtimeMs = this.mtime();
    this.rows = parseVisitorsFile(readFileSync(this.file, 'utf8'), this.file);
  }

  /** Every visitor, fresh from disk if the file changed. */
  all(): Visitor[] {
    const mtime = this.mtime();
    if (mtime !== this.mtimeMs) {
      try {
        this.rows = parseVisitorsFile(readFileSync(this.file, 'utf8'), this.file);
        this.mtimeMs = mtime;
      } catch (err) {
        process.stderr.write(`voice: ignoring the edited ${this.file}: ${(err as Error).message}\n`);
      }
    }
    return this.rows;
  }

  /** The visitor with this slug, if any. */
  get(slug: string): Visitor | undefined {
    return this.all().find((v) => v.slug === slug);
  }

  private mtime(): number {
    try {
      return statSync(this.file).mtimeMs;
    } catch (err) {
      throw new VisitorError('store', `Cannot read ${this.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
}
