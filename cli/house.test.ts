// The CLI's house rules (cli/README.md), read from its tree: every command family lives in one
// folder of cli/commands/ whose index.ts builds its commands; cli/commands/ holds those folders and
// its index.ts (the lazily loaded commands) and nothing else; no commander command is built outside
// a family but the root program (program.ts); code outside cli/commands/ reaches a family only
// through its index.ts (tests may reach further in).
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = import.meta.dirname;

/** Source files by path from cli/ (`commands/dev/index.ts`), with their text. */
type Tree = ReadonlyMap<string, string>;

function read(): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(CLI, { recursive: true, encoding: 'utf8' })) {
    const path = name.split(sep).join('/');
    if (/\.(ts|tsx|js|md|json)$/.test(path)) out.set(path, /\.tsx?$/.test(path) ? readFileSync(join(CLI, path), 'utf8') : '');
  }
  return out;
}

const isTest = (path: string): boolean => /\.test(-support)?\.tsx?$/.test(path) || path.startsWith('test/');

/** The files (from cli/) a source file imports by relative path, `.js` specifiers read as their `.ts` source. */
function importsOf(path: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    out.push(posix.normalize(posix.join(posix.dirname(path), m[1] as string)).replace(/\.js$/, '.ts'));
  }
  return out;
}

/** The family a path belongs to (`dev` for `commands/dev/run.ts`), if any. */
const familyOf = (path: string): string | undefined => /^commands\/([^/]+)\//.exec(path)?.[1];

/** What breaks the house rules in `tree`, one line each (empty: the house is in order). */
function houseProblems(tree: Tree): string[] {
  const problems: string[] = [];
  const families = new Set([...tree.keys()].map(familyOf).filter((f): f is string => f !== undefined));
  for (const path of tree.keys()) {
    if (posix.dirname(path) === 'commands' && path !== 'commands/index.ts') problems.push(`${path}: cli/commands/ holds one folder per command family and its index.ts, no loose files`);
  }
  for (const family of families) {
    const index = tree.get(`commands/${family}/index.ts`);
    if (index === undefined) problems.push(`commands/${family}/ has no index.ts building its commands`);
    else if (!/export (async )?function (\w+Commands?|add\w+)\(|export \{[^}]*Command\b/.test(index)) problems.push(`commands/${family}/index.ts exports no function that builds a Command`);
  }
  for (const [path, text] of tree) {
    if (isTest(path)) continue;
    if (/\bnew Command\(/.test(text) && familyOf(path) === undefined && path !== 'program.ts') problems.push(`${path} builds a commander command: commands live in cli/commands/<family>/`);
    for (const target of importsOf(path, text)) {
      const family = familyOf(target);
      if (!family || target === `commands/${family}/index.ts`) continue;
      if (path === 'commands/index.ts') problems.push(`${path} imports ${target}: the command list loads each family's index.ts`);
      else if (!path.startsWith('commands/')) problems.push(`${path} imports ${target}: outside cli/commands/, import a family through commands/${family}/index.ts`);
    }
  }
  return problems;
}

describe("the CLI's house", () => {
  it('is in order: one folder per command family, each built by its index.ts, reached through it', () => {
    const tree = read();
    expect(tree.has('commands/dev/index.ts')).toBe(true);
    expect(houseProblems(tree)).toEqual([]);
  });

  it('names each broken rule', () => {
    const builds = "import { Command } from 'commander';\nexport function fooCommand(): Command {\n  return new Command('foo');\n}\n";
    const tree = new Map<string, string>([
      ['commands/index.ts', "export const LAZY = [() => import('./dev/run.js'), () => import('./foo/index.js')];"],
      ['commands/dev-run.ts', builds],
      ['commands/foo/index.ts', builds],
      ['commands/foo/work.ts', ''],
      ['commands/bar/work.ts', ''],
      ['commands/baz/index.ts', 'export const x = 1;\n'],
      ['commands/dev/index.ts', builds],
      ['commands/dev/run.ts', ''],
      ['program.ts', "import { x } from './commands/foo/work.js';\nconst stub = new Command('x');"],
      ['widget/thing.ts', builds],
      ['test/helper.ts', "import { x } from '../commands/foo/work.js';"],
      ['commands/foo/foo.test.ts', "import { x } from '../dev/run.js';"],
    ]);
    expect(houseProblems(tree)).toEqual([
      'commands/dev-run.ts: cli/commands/ holds one folder per command family and its index.ts, no loose files',
      'commands/bar/ has no index.ts building its commands',
      'commands/baz/index.ts exports no function that builds a Command',
      "commands/index.ts imports commands/dev/run.ts: the command list loads each family's index.ts",
      'commands/dev-run.ts builds a commander command: commands live in cli/commands/<family>/',
      'program.ts imports commands/foo/work.ts: outside cli/commands/, import a family through commands/foo/index.ts',
      'widget/thing.ts builds a commander command: commands live in cli/commands/<family>/',
    ]);
  });
});
