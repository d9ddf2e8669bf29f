// The state file: which platform UUID each file id is bound to, per account. Sections are named
// after the types (`tools`, `assistants`, ...) like the platform's gitops repository, whose files
// (entries `{ "uuid": ... }` or bare UUID strings) are read as they are. Written with sorted keys
// so its diffs show only real changes. Every change is a locked read-modify-write of one entry,
// so two applies (two CI jobs, a teammate) never lose each other's entries or tear the file.
import { GitopsInputError } from './errors.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { updateJsonFile } from '../fs/locked-json.js';

/** What the state knows of one resource. */
export interface StateEntry {
  uuid: string;
  /** Fields the file named at the last apply or pull (removing one from the file removes it). */
  fields?: string[];
  /** Hash of the file's text at the last apply or pull (pull keeps files edited since). */
  hash?: string;
}

/** The state of one account. */
export interface State {
  /** Who the state belongs to (profile and API URL), for people reading it. */
  account?: string;
  sections: Record<string, Record<string, StateEntry>>;
}

/** The state file's name for an account label (`default`, `staging`, `default.127.0.0.1-4010`). */
export function stateFileName(account: string): string {
  return `.voice-state.${account.replace(/[^\w.-]+/g, '-')}.json`;
}

/** A short, stable hash of a file's text. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Parses a state file's text; a broken one is an error naming the file. */
export function parseState(text: string, path: string): State {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new GitopsInputError([], `The state file ${path} is not valid JSON (${(e as Error).message}); fix it or restore it from git`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new GitopsInputError([], `The state file ${path} is not a JSON object`);
  const state: State = { sections: {} };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (key === 'account' && typeof value === 'string') state.account = value;
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    const section: Record<string, StateEntry> = {};
    for (const [id, entry] of Object.entries(value as Record<string, unknown>)) {
      if (typeof entry === 'string') section[id] = { uuid: entry };
      else if (entry && typeof entry === 'object' && typeof (entry as StateEntry).uuid === 'string') {
        const e = entry as StateEntry;
        section[id] = { uuid: e.uuid, ...(Array.isArray(e.fields) ? { fields: e.fields.filter((f) => typeof f === 'string') } : {}), ...(typeof e.hash === 'string' ? { hash: e.hash } : {}) };
      }
    }
    state.sections[key] = section;
  }
  return state;
}

/** Reads a state file; a missing or empty file is an empty state. */
export function readState(path: string): State {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return { sections: {} };
    throw e;
  }
  return text.trim() ? parseState(text, path) : { sections: {} };
}

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k] as T]),
  );
}

/** The state file's text: sorted sections and ids, one entry's keys in a fixed order. */
export function stateText(state: State): string {
  const out: Record<string, unknown> = {};
  if (state.account) out.account = state.account;
  for (const name of Object.keys(state.sections).sort()) {
    const section = state.sections[name] as Record<string, StateEntry>;
    if (Object.keys(section).length === 0) continue;
    out[name] = sorted(
      Object.fromEntries(Object.entries(section).map(([id, e]) => [id, { uuid: e.uuid, ...(e.fields ? { fields: [...e.fields].sort() } : {}), ...(e.hash ? { hash: e.hash } : {}) }])),
    );
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

/**
 * Changes the state file under its cross-process lock: reads the current file (another process
 * may have written it since), applies `change`, writes it atomically. Returns the state written.
 */
export function updateState(path: string, change: (state: State) => void): Promise<State> {
  return updateJsonFile<State>(
    path,
    (current) => {
      const state = current ?? { sections: {} };
      change(state);
      return state;
    },
    { parse: parseState, format: stateText },
  );
}

/** The entry of a file id, if the state has one. */
export function entryOf(state: State, kind: string, id: string): StateEntry | undefined {
  return state.sections[kind]?.[id];
}

/** Records (or replaces) the entry of a file id. */
export function setEntry(state: State, kind: string, id: string, entry: StateEntry): void {
  (state.sections[kind] ??= {})[id] = entry;
}

/** Forgets a file id. */
export function removeEntry(state: State, kind: string, id: string): void {
  delete state.sections[kind]?.[id];
}

/** Records changes to a state file, grouping the ones made while a write is under way. */
export interface StateWriter {
  /** Applies a change to the state in memory now; resolves once it is in the file. */
  commit(change: (state: State) => void): Promise<void>;
  /** Resolves once every change committed so far is in the file. */
  flushed(): Promise<void>;
}

/** A writer for a state kept in memory only: each change applies at once, nothing is written. */
export function memoryWriter(memory: State): StateWriter {
  return {
    commit(change) {
      change(memory);
      return Promise.resolve();
    },
    flushed: () => Promise.resolve(),
  };
}

/**
 * A writer that applies each change to `memory` at once and to the file under its lock. Changes
 * that arrive while a write is running go together in the next one (a group commit): parallel
 * creates cost one locked write per batch instead of one each, and each still resolves only
 * once it is on disk.
 */
export function stateWriter(path: string, memory: State): StateWriter {
  let queue: { change: (s: State) => void; done: () => void; fail: (e: unknown) => void }[] = [];
  let running = false;
  let idle: Promise<void> = Promise.resolve();
  const pump = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      while (queue.length) {
        const batch = queue;
        queue = [];
        try {
          await updateState(path, (s) => batch.forEach((b) => b.change(s)));
          batch.forEach((b) => b.done());
        } catch (e) {
          batch.forEach((b) => b.fail(e));
        }
      }
    } finally {
      running = false;
    }
  };
  return {
    commit(change) {
      change(memory);
      const written = new Promise<void>((done, fail) => queue.push({ change, done, fail }));
      // Marked handled here: a caller that does not wait still sees a failure through flushed().
      written.catch(() => undefined);
      idle = idle.then(
        () => written,
        () => written,
      );
      void pump();
      return written;
    },
    flushed: () => idle,
  };
}
