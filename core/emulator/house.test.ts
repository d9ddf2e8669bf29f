// The emulator's house rules (README.md), read from its tree: a small root (at most 8 files besides
// tests and the README: tests of the whole emulator live beside index.ts and do not count), the
// store and the call engine below the other rooms (nothing in calls/ imports actions/; calls/
// reaches only store/ and errors.ts, store/ only errors.ts), and calls/index.ts as the calls' one
// face for core/load and the other rooms (tests may also use the doubles in calls/testing.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Most files the emulator's root may hold (tests and README.md aside). */
const MAX_ROOT_FILES = 8;

const CORE = join(import.meta.dirname, '..');

/** Source files by path from core/ (`emulator/index.ts`), with their text. */
type Tree = ReadonlyMap<string, string>;

function read(folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(join(CORE, folder), { recursive: true, encoding: 'utf8' })) {
    const path = posix.join(folder, name.split(sep).join('/'));
    if (/\.(ts|tsx|json|md|js|mjs)$/.test(path)) out.set(path, /\.tsx?$/.test(path) ? readFileSync(join(CORE, path), 'utf8') : '');
  }
  return out;
}

const isTest = (path: string): boolean => /\.test(-support)?\.ts$/.test(path);

/** The files (from core/) a source file imports by relative path, `.js` specifiers read as their `.ts` source. */
function importsOf(path: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = posix.normalize(posix.join(posix.dirname(path), m[1] as string));
    out.push(target.replace(/\.js$/, '.ts'));
  }
  return out;
}

/** What breaks the house rules in `tree`, one line each (empty: the house is in order). */
function houseProblems(tree: Tree): string[] {
  const problems: string[] = [];
  const root = [...tree.keys()].filter((p) => posix.dirname(p) === 'emulator' && !isTest(p) && p !== 'emulator/README.md');
  if (root.length > MAX_ROOT_FILES) problems.push(`emulator/ holds ${root.length} files at its root (at most ${MAX_ROOT_FILES}): ${root.join(', ')}`);
  const calls = new Set(['emulator/calls/index.ts']);
  const doubles = new Set([...calls, 'emulator/calls/testing.ts']);
  for (const [path, text] of tree) {
    for (const target of importsOf(path, text)) {
      const where = `${path} imports ${target}`;
      const inCalls = path.startsWith('emulator/calls/');
      if (inCalls && target.startsWith('emulator/actions/')) problems.push(`${where}: calls/ never imports actions/`);
      else if (inCalls && !isTest(path) && target.startsWith('emulator/') && !/^emulator\/(calls|store)\/|^emulator\/errors\.ts$/.test(target))
        problems.push(`${where}: calls/ imports only store/ and errors.ts of the emulator`);
      if (path.startsWith('emulator/store/') && !isTest(path) && target.startsWith('emulator/') && !/^emulator\/store\/|^emulator\/errors\.ts$/.test(target))
        problems.push(`${where}: store/ imports nothing of the emulator but errors.ts`);
      if (path.startsWith('load/') && target.startsWith('emulator/') && !(isTest(path) ? doubles : calls).has(target))
        problems.push(`${where}: core/load imports only the calls face, emulator/calls/index.ts`);
      if (path.startsWith('emulator/') && !inCalls && target.startsWith('emulator/calls/') && !(isTest(path) ? doubles : calls).has(target))
        problems.push(`${where}: outside calls/, import the calls face emulator/calls/index.ts`);
    }
  }
  return problems;
}

describe("the emulator's house", () => {
  it('is in order: a small root, the store and the calls below the other rooms, one face for the calls', () => {
    const tree = new Map([...read('emulator'), ...read('load')]);
    expect(tree.has('emulator/calls/index.ts')).toBe(true);
    expect(houseProblems(tree)).toEqual([]);
  });

  it('names each broken rule', () => {
    const tree = new Map<string, string>([
      ...Array.from({ length: MAX_ROOT_FILES + 1 }, (_, i): [string, string] => [`emulator/f${i}.ts`, '']),
      ['emulator/wide.test.ts', ''],
      ['emulator/README.md', ''],
      ['emulator/calls/session.ts', "import { logCall } from '../actions/place.js';\nimport type { Ctx } from '../http/context.js';"],
      ['emulator/calls/flows.test.ts', "import { startEmulator } from '../index.js';"],
      ['emulator/store/persist.ts', "import { x } from '../http/io.js';\nimport { DataFileError } from '../errors.js';"],
      ['load/engine.ts', "import { Store } from '../emulator/store/store.js';\nimport { CallSession } from '../emulator/calls/index.js';"],
      ['load/load.test.ts', "import { startHook } from '../emulator/calls/testing.js';"],
      ['emulator/control/routes.ts', "import {\n  deliver,\n} from '../calls/deliver.js';\nimport { CallRunner } from '../calls/index.js';"],
    ]);
    expect(houseProblems(tree)).toEqual([
      expect.stringMatching(/^emulator\/ holds 9 files at its root \(at most 8\)/),
      'emulator/calls/session.ts imports emulator/actions/place.ts: calls/ never imports actions/',
      'emulator/calls/session.ts imports emulator/http/context.ts: calls/ imports only store/ and errors.ts of the emulator',
      'emulator/store/persist.ts imports emulator/http/io.ts: store/ imports nothing of the emulator but errors.ts',
      'load/engine.ts imports emulator/store/store.ts: core/load imports only the calls face, emulator/calls/index.ts',
      'emulator/control/routes.ts imports emulator/calls/deliver.ts: outside calls/, import the calls face emulator/calls/index.ts',
    ]);
  });
});
