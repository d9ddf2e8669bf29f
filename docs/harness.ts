// Runs the code blocks of a Markdown guide, in order, against an emulator started for that guide.
// A fence's info string says what happens to its block:
//   ```ts / ```tsx / ```js    a module, imported (top-level await allowed); it must not throw
//   ```sh / ```bash           run by bash (`set -euo pipefail`), where `voice` is the built
//                             bin/voice.js; it must exit 0. Its `voice dev` and `voice demo` servers
//                             start first, on port 0, and stop when the block ends. Only programs
//                             that stay on this machine may run (PROGRAMS); curl only to the emulator
//   ```<lang> norun="REASON"  shown only: a block that cannot run in a test, and why
//   ```<lang> tested-in=PATH  run by the test at PATH, which needs what this harness lacks (a
//                             server of yours, a model); PATH must exist and name the guide
//   ```<lang> file=PATH       must equal the repository's file PATH, which runs in the suite itself
//   a block whose first line is `# file: NAME` (yaml) or `// file: NAME` (ts, json) is written to
//   the guide's working folder first, for the blocks after it
// Other blocks (yaml, json, text, output) are data or output and are not run.
// In every block, `http://127.0.0.1:4010` (the emulator's default address) and the hosted API's
// address become the address of the guide's own emulator, and `--local` also names it.
import { execa, type ResultPromise } from 'execa';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

/** Splits a shell block into commands: comments and blank lines dropped, `\` continuations joined, here-documents kept whole. */
export function commandsOf(code: string): string[] {
  const out: string[] = [];
  const lines = code.split('\n');
  let current = '';
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\s+#.*$/, '').replace(/^#.*$/, '');
    if (line.trim() === '' && current === '') continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
    const heredoc = /<<-?\s*(['"]?)(\w+)\1/.exec(line);
    if (heredoc) {
      for (i++; i < lines.length && (lines[i] as string).trim() !== heredoc[2]; i++) current += '\n' + (lines[i] as string);
      current += '\n' + (heredoc[2] as string);
    }
    if (current.trim()) out.push(current.trim());
    current = '';
  }
  return out;
}

/** Shell words of one command line (single and double quotes; no expansion). */
export function wordsOf(command: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:\\.|[^"\\])*)"|([^\s'"]+)/g;
  let word: string | undefined;
  let last = 0;
  for (let m = re.exec(command); m; m = re.exec(command)) {
    const piece = m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3] ?? '';
    // Pieces with no space between them are one word (`--set name="A B"`).
    if (word !== undefined && m.index === last) word += piece;
    else {
      if (word !== undefined) words.push(word);
      word = piece;
    }
    last = re.lastIndex;
  }
  if (word !== undefined) words.push(word);
  return words;
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
}

/** The block's text with the emulator's default address, and the hosted API's, replaced by the guide's emulator. */
export function localise(code: string, url: string): string {
  return code.replaceAll('http://127.0.0.1:4010', url).replaceAll('ws://127.0.0.1:4010', url.replace(/^http/, 'ws')).replaceAll('https://api.vapi.ai', url);
}

/** Programs a shell block may run besides `voice`: none of them reaches beyond this machine. */
const PROGRAMS = new Set(['voice', 'curl', 'jq', 'node', 'cat', 'echo', 'printf', 'test', 'grep', 'head', 'wc', 'ls', 'mkdir', 'cd', 'export']);

/** The programs a command runs: the first word of each pipeline step and `$(...)`, after NAME=value words. */
export function programsOf(command: string): string[] {
  const body = command.replace(/<<-?\s*(['"]?)(\w+)\1[\s\S]*$/, '');
  const steps: string[] = [];
  let step = '';
  let quote = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (quote === "'") quote = c === "'" ? '' : quote;
    else if (c === '$' && body[i + 1] === '(') {
      steps.push(step);
      step = '';
      i++;
      continue;
    } else if (quote === '"') quote = c === '"' ? '' : quote;
    else if (c === "'" || c === '"') quote = c;
    else if ('|;&()'.includes(c)) {
      steps.push(step);
      step = '';
      continue;
    }
    step += c;
  }
  steps.push(step);
  return steps.map((s) => wordsOf(s.trim()).find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))).filter((w): w is string => w !== undefined);
}

/** `voice dev` or `voice demo` serving (not one of their subcommands): started in the background. */
function serverArgs(command: string): { env: Record<string, string>; args: string[] } | undefined {
  const all = wordsOf(command);
  const first = all.findIndex((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  const words = all.slice(first);
  const args = words.slice(1);
  if (words[0] !== 'voice' || !(args[0] === 'dev' || args[0] === 'demo') || !(args[1] === undefined || args[1].startsWith('-'))) return undefined;
  const env = Object.fromEntries(all.slice(0, first).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  return { env, args };
}

/** A `voice` shell function for the block: the built CLI, with `--local` meaning the guide's emulator. */
const VOICE_FUNCTION = `voice() {
  local a=("$@")
  if [[ " $* " == *" --local "* && " $* " != *" --api-url "* ]]; then a+=(--api-url "$VOICE_DOCS_URL"); fi
  "$VOICE_DOCS_NODE" "$VOICE_DOCS_BIN" "\${a[@]}"
}
trap 'echo "failed: $BASH_COMMAND" >&2' ERR
`;

/**
 * Runs a shell block: its `voice dev` and `voice demo` servers first (on port 0, until the block
 * ends), then its other commands in order in one bash (so `ID=$(...)`, pipes and here-documents
 * work); rejects when any command fails.
 */
export async function runShell(block: Block, ctx: GuideContext): Promise<void> {
  const servers: ResultPromise[] = [];
  const script: string[] = [];
  const bin = join(ctx.root, 'bin', 'voice.js');
  try {
    for (const command of commandsOf(localise(block.code, ctx.url))) {
      const outside = programsOf(command).filter((p) => !PROGRAMS.has(p));
      if (outside.length) throw new Error(`line ${block.line}: \`${outside.join('`, `')}\` does not run here; mark the block norun="why" if it cannot: ${command}`);
      const remote = /\bcurl\b/.test(command) ? (command.match(/https?:\/\/[^\s'"]+/g) ?? []).filter((u) => !u.startsWith(ctx.url)) : [];
      if (remote.length) throw new Error(`line ${block.line}: curl may only reach the emulator: ${remote.join(', ')}`);
      const server = serverArgs(command);
      if (!server) {
        script.push(command);
        continue;
      }
      const args = server.args;
      const at = args.indexOf('--port');
      if (at >= 0) args.splice(at, 2);
      args.push('--port', '0');
      const child = execa(process.execPath, [bin, ...args.filter((a) => a !== '--open')], { cwd: ctx.dir, env: { ...ctx.env, ...server.env }, extendEnv: false, reject: false });
      servers.push(child);
      await new Promise<void>((ok, fail) => {
        let text = '';
        child.stdout?.on('data', (c: Buffer) => {
          text += c.toString();
          if (/https?:\/\/\S+/.test(text)) ok();
        });
        void child.then((r) => fail(new Error(`line ${block.line}: \`${command}\` ended (${String(r.exitCode)}): ${String(r.stderr)}`)));
      });
    }
    if (script.length === 0) return;
    const env = { ...ctx.env, VOICE_DOCS_NODE: process.execPath, VOICE_DOCS_BIN: bin, VOICE_DOCS_URL: ctx.url };
    const r = await execa('bash', ['-euo', 'pipefail', '-c', VOICE_FUNCTION + script.join('\n')], { cwd: ctx.dir, env, extendEnv: false, reject: false, input: '', timeout: 60_000 });
    if (r.exitCode !== 0) throw new Error(`line ${block.line}: exited ${String(r.exitCode)}:\n${String(r.stderr)}${String(r.stdout)}`);
  } finally {
    for (const s of servers) s.kill('SIGINT');
    await Promise.allSettled(servers);
  }
}

/** Writes a `# file: NAME` block into the guide's folder. */
export function writeBlock(block: Block, ctx: GuideContext): void {
  const [first, ...rest] = block.code.split('\n');
  const name = (/file: (\S+)/.exec(first ?? '') as RegExpExecArray)[1] as string;
  const path = join(ctx.dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, localise(rest.join('\n'), ctx.url));
}

/** Runs a module block: written beside the repository's packages (so its imports resolve) and imported. */
export async function runModule(block: Block, ctx: GuideContext, name: string): Promise<void> {
  const folder = join(ctx.root, 'node_modules', '.cache', 'voice-docs');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}-${block.line}.${block.lang === 'tsx' ? 'tsx' : block.lang === 'js' || block.lang === 'mjs' ? 'mjs' : 'ts'}`);
  // Node resolves `voice-agent-core/client` to the Node entry; the test runner's source condition
  // would give the browser one, so the module names the Node entry as Node would pick it.
  const code = block.lang === 'tsx' ? block.code : block.code.replace(/(from\s+['"])voice-agent-core\/client(['"])/g, '$1voice-agent-core/client/node$2');
  writeFileSync(file, localise(code, ctx.url));
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
