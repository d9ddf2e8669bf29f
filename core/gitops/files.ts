// Reads a resources directory: one resource per file under its type's folder, `.yml`, `.yaml` or
// `.json`, and for assistants `.md` (YAML front matter, the body being the system prompt). Every
// problem is collected with its file, line and column; nothing here talks to the network.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import type { Kind } from './kinds.js';
import { availableKinds } from './kinds.js';
import { readYaml, UNSURE } from './read-yaml.js';
import { isObject } from '../json.js';

/** A problem found before any request: the file (relative to the directory), where, and what. */
export interface Problem {
  file: string;
  line?: number | undefined;
  col?: number | undefined;
  message: string;
}

/** One resource read from a file. */
export interface LocalResource {
  kind: Kind;
  /** Path under the type folder without the extension (`support/intake`). */
  id: string;
  /** Path relative to the resources directory, with `/` separators. */
  file: string;
  format: 'yml' | 'yaml' | 'json' | 'md';
  /** The configuration as the API takes it, references still file ids. */
  data: Record<string, unknown>;
  /** `voice test`'s own block (`x-voice`) of an eval or simulation file, kept out of `data`. */
  extension?: unknown;
  /** The file's text as read. */
  text: string;
  /** Line and column of the value at a path in the file, when known. */
  locate(path: readonly (string | number)[]): { line: number; col: number } | undefined;
}

/** What reading a directory found. */
export interface Project {
  dir: string;
  resources: LocalResource[];
  problems: Problem[];
  /** Files and folders skipped, for a note on stderr. */
  warnings: string[];
}

const EXTENSIONS = ['.yml', '.yaml', '.json', '.md'];

/** The key of `voice test`'s own block in an eval or simulation file (the platform never sees it). */
export const EXTENSION_KEY = 'x-voice';
// The closing `---` must start a line of its own (a value may end in dashes).
const FRONT_MATTER = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n([\s\S]*))?$/;

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else out.push(path);
  }
  return out;
}

/** Parses one file's text; problems carry line and column. */
export function parseResource(kind: Kind, id: string, file: string, text: string): { resource?: LocalResource; problems: Problem[] } {
  const ext = extname(file).slice(1) as LocalResource['format'];
  let yamlText = text;
  let lineOffset = 0;
  let body: string | undefined;
  if (ext === 'md') {
    if (!kind.markdown) return { problems: [{ file, message: `only assistants may be Markdown files; write ${kind.folder}/${id}.yml` }] };
    const m = FRONT_MATTER.exec(text);
    if (!m) return { problems: [{ file, line: 1, col: 1, message: 'expected YAML front matter between two --- lines at the top of the file' }] };
    yamlText = m[1] ?? '';
    lineOffset = 1;
    body = (m[2] ?? '').trim();
  }
  // The `yaml` document: parsed at once when js-yaml cannot say (see read-yaml.ts), else only to
  // locate a value.
  let parsed: { doc: Document.Parsed; lineCounter: LineCounter } | undefined;
  const full = (): { doc: Document.Parsed; lineCounter: LineCounter } => {
    if (!parsed) {
      const lineCounter = new LineCounter();
      parsed = { doc: parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true }), lineCounter };
    }
    return parsed;
  };
  const at = (offset: number): { line: number; col: number } => {
    const pos = full().lineCounter.linePos(offset);
    return { line: pos.line + lineOffset, col: pos.col };
  };
  let plain = readYaml(yamlText);
  if (plain === UNSURE) {
    const { doc } = full();
    if (doc.errors.length) {
      return { problems: doc.errors.map((e) => ({ file, ...at(e.pos[0]), message: e.message.split('\n')[0] as string })) };
    }
    plain = doc.toJS({ maxAliasCount: 100 });
  }
  const value: unknown = plain ?? (ext === 'md' ? {} : undefined);
  if (!isObject(value)) return { problems: [{ file, line: 1 + lineOffset, col: 1, message: `expected a mapping of fields (the ${kind.label}'s configuration)` }] };
  const data = value;
  let extension: unknown;
  if (kind.testExtension && EXTENSION_KEY in data) {
    extension = data[EXTENSION_KEY];
    delete data[EXTENSION_KEY];
  }
  for (const [old, name] of Object.entries(kind.aliases ?? {})) {
    if (old in data && !(name in data)) data[name] = data[old];
    delete data[old];
  }
  if (body) {
    const model = isObject(data.model) ? { ...data.model } : {};
    const rest = Array.isArray(model.messages) ? (model.messages as unknown[]).filter((m) => !(isObject(m) && m.role === 'system')) : [];
    model.messages = [{ role: 'system', content: body }, ...rest];
    data.model = model;
  }
  const locate = (path: readonly (string | number)[]): { line: number; col: number } | undefined => {
    const { doc } = full();
    const written = Object.entries(kind.aliases ?? {}).find(([old, name]) => name === path[0] && doc.hasIn([old]))?.[0];
    const node = doc.getIn(written ? [written, ...path.slice(1)] : path, true) as { range?: [number, number, number] } | undefined;
    return node?.range ? at(node.range[0]) : undefined;
  };
  return { resource: { kind, id, file, format: ext, data, ...(extension !== undefined ? { extension } : {}), text, locate }, problems: [] };
}

/** Reads every resource file of a directory (all types the catalogue serves). */
export function readProject(dir: string): Project {
  const project: Project = { dir, resources: [], problems: [], warnings: [] };
  const kinds = availableKinds();
  const folders = new Set(kinds.map((k) => k.folder));
  const parents = new Set(kinds.flatMap((k) => (k.folder.includes('/') ? [k.folder.split('/')[0] as string] : [])));
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    if (statSync(join(dir, name)).isDirectory() && !folders.has(name) && !parents.has(name)) project.warnings.push(`${name}/ is not a resource folder; ignored`);
  }
  const seen = new Map<string, string>();
  for (const kind of kinds) {
    const root = join(dir, ...kind.folder.split('/'));
    let files: string[];
    try {
      if (!statSync(root).isDirectory()) continue;
      files = walk(root);
    } catch {
      continue;
    }
    for (const path of files) {
      const file = relative(dir, path).split(sep).join('/');
      const ext = extname(path);
      // A child type's folder (simulations/tests) is not part of its parent's ids.
      if (kinds.some((k) => k !== kind && k.folder.startsWith(`${kind.folder}/`) && file.startsWith(`${k.folder}/`))) continue;
      if (!EXTENSIONS.includes(ext)) {
        project.warnings.push(`${file}: not a resource file (.yml, .yaml, .json${kind.markdown ? ', .md' : ''}); ignored`);
        continue;
      }
      const id = relative(root, path).split(sep).join('/').slice(0, -ext.length);
      const key = `${kind.name}/${id}`;
      const other = seen.get(key);
      if (other) {
        project.problems.push({ file, line: 1, col: 1, message: `duplicate id "${id}": ${other} has the same id (a resource's id is its path without the extension)` });
        continue;
      }
      seen.set(key, file);
      const parsed = parseResource(kind, id, file, readFileSync(path, 'utf8'));
      project.problems.push(...parsed.problems);
      if (parsed.resource) project.resources.push(parsed.resource);
    }
  }
  return project;
}
