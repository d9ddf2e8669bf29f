// Runs the code blocks of a Markdown guide, in order, against an emulator started for that guide
// (shell blocks: docs/shell.ts, read with docs/words.ts).
// A fence's info string says what happens to its block:
//   ```ts / ```tsx / ```js    a module, imported (top-level await allowed); it must not throw
//   ```sh / ```bash           run by bash (`set -euo pipefail`), where `voice` is the built
//                             bin/voice.js; it must exit 0, and a line commented `# exits N` must
//                             exit N. Its `voice dev`, `voice demo`, `voice listen` and
//                             `voice mcp --http` servers start first, on free ports (without
//                             `--open`: no browser here), with the variables earlier blocks
//                             exported, and stop when the block ends. Variables it sets are
//                             set in the guide's later blocks. Only programs that stay on this
//                             machine run (PROGRAMS); curl only to the emulator and `voice mcp`
//   ```output                 each line (up to a `…`) must be in what the shell block before printed
//   ```<lang> norun="REASON"  shown only: a block that cannot run in a test, and why
//   ```<lang> tested-in=PATH  run by the test at PATH, which needs what this harness lacks (a
//                             server of yours, a model); PATH must exist and name the guide
//   ```<lang> file=PATH       must equal the repository's file PATH, which runs in the suite itself
//   a block whose first line is `# file: NAME` (yaml) or `// file: NAME` (ts, json) is written to
//   the guide's working folder first, for the blocks after it
// Other blocks (yaml, json, text) are data and are not run.
// In every block, `http://127.0.0.1:4010` (the emulator's default address) and the hosted API's
// address become the address of the guide's own emulator, and `--local` also names it; Ollama's
// address names a stand-in model that answers every request; ports 3000 (your server), 4242
// (`voice listen`, which runs there) and 4390 (`voice mcp --http`, likewise) free ports.
// DOCS_SHOW=1 prints what each shell block printed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { wordsOf } from './words.js';

/** One fenced block of a guide. */
export interface Block {
  lang: string;
  flags: string[];
  /** `file=PATH` when the block mirrors a repository file. */
  file?: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** The fenced blocks of a Markdown text, in order. */
export function parseBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+)(.*)$/.exec(lines[i] as string);
    if (!open) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const words = wordsOf(info.trim());
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !(lines[j] as string).startsWith(`${indent}${fence}`); j++) body.push((lines[j] as string).slice(indent.length));
    const file = words.find((w) => w.startsWith('file='))?.slice(5);
    blocks.push({ lang: words[0] ?? '', flags: words.slice(1), ...(file ? { file } : {}), code: body.join('\n') + '\n', line: i + 1 });
    i = j;
  }
  return blocks;
}

/** `tested-in=PATH`: a test of its own runs the block, with what it needs (a server, a model); PATH names that test. */
export function testedIn(block: Block): string | undefined {
  return block.flags.find((f) => f.startsWith('tested-in='))?.slice('tested-in='.length);
}

/** Why a `norun="REASON"` block cannot run here (empty when a bare `norun` gives none). */
export function notRunBecause(block: Block): string | undefined {
  const flag = block.flags.find((f) => f === 'norun' || f.startsWith('norun='));
  return flag === undefined ? undefined : flag.slice('norun='.length).trim();
}

/** What the harness does with a block. */
export function kindOf(block: Block): 'shown' | 'elsewhere' | 'mirror' | 'write' | 'module' | 'shell' | 'data' {
  if (notRunBecause(block) !== undefined) return 'shown';
  if (testedIn(block)) return 'elsewhere';
  if (block.file) return 'mirror';
  if (/^(#|\/\/) file: \S+/.test(block.code)) return 'write';
  if (['ts', 'tsx', 'js', 'mjs'].includes(block.lang)) return 'module';
  if (['sh', 'bash', 'shell', 'console'].includes(block.lang)) return 'shell';
  return 'data';
}

/** Where a guide's blocks run. */
export interface GuideContext {
  /** The repository. */
  root: string;
  /** The guide's working folder (the current directory of its commands). */
  dir: string;
  /** The guide's emulator. */
  url: string;
  /** Environment of its commands. */
  env: Record<string, string>;
  /** A free port standing in for the guide's own server at port 3000. */
  appPort?: number;
  /** A free port standing in for `voice listen`'s default, 4242. */
  listenPort?: number;
  /** A free port standing in for `voice mcp --http 4390`, the guides' MCP port. */
  mcpPort?: number;
  /** A stand-in model server for the local model the guide names (`http://127.0.0.1:11434/v1`, Ollama's). */
  modelUrl?: string;
}

/**
 * The block's text with the emulator's default address, and the hosted API's, replaced by the
 * guide's emulator, a local model's by the guide's stand-in model, and your server's port 3000,
 * `voice listen`'s 4242 and `voice mcp --http`'s 4390 by free ones (so a busy port fails nothing).
 */
export function localise(code: string, ctx: Pick<GuideContext, 'url' | 'appPort' | 'listenPort' | 'mcpPort' | 'modelUrl'>): string {
  const { url, appPort, listenPort, mcpPort, modelUrl } = ctx;
  const local = (modelUrl === undefined ? code : code.replaceAll('http://127.0.0.1:11434/v1', modelUrl))
    .replaceAll('http://127.0.0.1:4010', url)
    .replaceAll('ws://127.0.0.1:4010', url.replace(/^http/, 'ws'))
    .replaceAll('https://api.vapi.ai', url);
  const app = appPort === undefined ? local : local.replace(/\b(127\.0\.0\.1|localhost):3000\b/g, `$1:${appPort}`).replaceAll('.listen(3000)', `.listen(${appPort})`);
  const listen = listenPort === undefined ? app : app.replace(/\b(127\.0\.0\.1|localhost):4242\b/g, `$1:${listenPort}`);
  return mcpPort === undefined ? listen : listen.replace(/\b(127\.0\.0\.1|localhost):4390\b/g, `$1:${mcpPort}`).replace(/--http 4390\b/g, `--http ${mcpPort}`);
}

/** Writes a `# file: NAME` block into the guide's folder. */
export function writeBlock(block: Block, ctx: GuideContext): void {
  const [first, ...rest] = block.code.split('\n');
  const name = (/file: (\S+)/.exec(first ?? '') as RegExpExecArray)[1] as string;
  const path = join(ctx.dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, localise(rest.join('\n'), ctx));
}

/** Runs a module block: written beside the repository's packages (so its imports resolve) and imported. */
export async function runModule(block: Block, ctx: GuideContext, name: string): Promise<void> {
  const folder = join(ctx.root, 'node_modules', '.cache', 'voice-docs');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}-${block.line}.${block.lang === 'tsx' ? 'tsx' : block.lang === 'js' || block.lang === 'mjs' ? 'mjs' : 'ts'}`);
  // Node resolves `voice-agent-core/client` to the Node entry; the test runner's source condition
  // would give the browser one, so the module names the Node entry's source as Node would pick it.
  const nodeClient = join(ctx.root, 'core', 'client', 'node.ts');
  const code = block.lang === 'tsx' ? block.code : block.code.replace(/(from\s+['"])voice-agent-core\/client(['"])/g, `$1${nodeClient}$2`);
  writeFileSync(file, localise(code, ctx));
  const cwd = process.cwd();
  const saved = { ...process.env };
  Object.assign(process.env, ctx.env);
  process.chdir(ctx.dir);
  try {
    await import(/* @vite-ignore */ `${file}?t=${Date.now()}`);
  } finally {
    process.chdir(cwd);
    process.env = saved;
  }
}

/** The repository file a `file=` block mirrors. */
export function mirrored(block: Block, root: string): string {
  return readFileSync(join(root, block.file as string), 'utf8');
}
