// Runs the code blocks of a Markdown guide, in order, against an emulator started for that guide.
// A fence's info string says what happens to its block:
//   ```ts / ```tsx / ```js    a module, imported (top-level await allowed); it must not throw
//   ```sh / ```bash           run by bash (`set -euo pipefail`), where `voice` is the built
//                             bin/voice.js; it must exit 0, and a line commented `# exits N` must
//                             exit N. Its `voice dev`, `voice demo` and `voice listen` servers start
//                             first, on port 0 (without `--open`: no browser here), and stop when
//                             the block ends. Variables it sets are
//                             set in the guide's later blocks. Only programs that stay on this
//                             machine run (PROGRAMS); curl only to the emulator
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
// address names a stand-in model that answers every request; ports 3000 (your server) and 4242
// (`voice listen`, which runs there) free ports.
// DOCS_SHOW=1 prints what each shell block printed.
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
  /** A free port standing in for the guide's own server at port 3000. */
  appPort?: number;
  /** A free port standing in for `voice listen`'s default, 4242. */
  listenPort?: number;
  /** A stand-in model server for the local model the guide names (`http://127.0.0.1:11434/v1`, Ollama's). */
  modelUrl?: string;
}

/**
 * The block's text with the emulator's default address, and the hosted API's, replaced by the
 * guide's emulator, a local model's by the guide's stand-in model, and your server's port 3000 and
 * `voice listen`'s 4242 by free ones (so a busy port fails nothing).
 */
export function localise(code: string, ctx: Pick<GuideContext, 'url' | 'appPort' | 'listenPort' | 'modelUrl'>): string {
  const { url, appPort, listenPort, modelUrl } = ctx;
  const local = (modelUrl === undefined ? code : code.replaceAll('http://127.0.0.1:11434/v1', modelUrl))
    .replaceAll('http://127.0.0.1:4010', url)
    .replaceAll('ws://127.0.0.1:4010', url.replace(/^http/, 'ws'))
    .replaceAll('https://api.vapi.ai', url);
  const app = appPort === undefined ? local : local.replace(/\b(127\.0\.0\.1|localhost):3000\b/g, `$1:${appPort}`).replaceAll('.listen(3000)', `.listen(${appPort})`);
  return listenPort === undefined ? app : app.replace(/\b(127\.0\.0\.1|localhost):4242\b/g, `$1:${listenPort}`);
}

/** Programs a shell block may run besides `voice`: none of them reaches beyond this machine. */
const PROGRAMS = new Set(['voice', 'curl', 'jq', 'node', 'cat', 'echo', 'printf', 'test', 'grep', 'head', 'wc', 'ls', 'mkdir', 'cd', 'export', 'eval']);

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
  return steps
    .map((s) => {
      const words = wordsOf(s.trim()).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
      return words[0] === '_exits' ? words[2] : words[0];
    })
    .filter((w): w is string => w !== undefined);
}

/** `voice dev`, `voice demo` or `voice listen` serving (not a subcommand): started in the background. */
function serverArgs(command: string): { env: Record<string, string>; args: string[] } | undefined {
  const all = wordsOf(command);
  const first = all.findIndex((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  const words = all.slice(first);
  const args = words.slice(1);
  if (words[0] !== 'voice' || !['dev', 'demo', 'listen'].includes(args[0] ?? '') || !(args[1] === undefined || args[1].startsWith('-'))) return undefined;
  const env = Object.fromEntries(all.slice(0, first).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  return { env, args };
}

/**
 * Before a block's commands: `voice` is the built CLI, with `--local` meaning the guide's emulator;
 * the variables earlier blocks of the guide set (`CALL_ID=$(...)`) are set again, as in one terminal.
 */
const PRELUDE = `voice() {
  local a=("$@")
  if [[ " $* " == *" --local "* && " $* " != *" --api-url "* ]]; then a+=(--api-url "$VOICE_DOCS_URL"); fi
  "$VOICE_DOCS_NODE" "$VOICE_DOCS_BIN" "\${a[@]}"
}
_before=" $(compgen -v | tr '\\n' ' ') "
if [ -f .docs-vars ]; then source .docs-vars; fi
trap 'for v in $(compgen -v); do [[ $v == _* || $_before == *" $v "* ]] || declare -p "$v"; done > .docs-vars' EXIT
trap 'echo "failed: $BASH_COMMAND" >&2' ERR
_exits() {
  local n=$1 rc=0
  shift
  "$@" || rc=$?
  if [ "$rc" != "$n" ]; then echo "expected exit $n, got $rc: $*" >&2; return 1; fi
}
`;

/** A line documented as failing (`voice ...   # exits 1`) must exit with that code: `_exits 1 voice ...`. */
function expectExits(code: string): string {
  return code.replace(/^(\S.*?)\s+#\s*exits (\d+)\b.*$/gm, '_exits $2 $1');
}

/**
 * Runs a shell block: its `voice dev` and `voice demo` servers first (on port 0, until the block
 * ends), then its other commands in order in one bash (so `ID=$(...)`, pipes and here-documents
 * work); rejects when any command fails.
 */
export async function runShell(block: Block, ctx: GuideContext): Promise<string> {
  const servers: ResultPromise[] = [];
  const script: string[] = [];
  const bin = join(ctx.root, 'bin', 'voice.js');
  try {
    for (const command of commandsOf(expectExits(localise(block.code, ctx)))) {
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
      args.push('--port', String(args[0] === 'listen' ? (ctx.listenPort ?? 0) : 0));
      const child = execa(process.execPath, [bin, ...args.filter((a) => a !== '--open')], { cwd: ctx.dir, env: { ...ctx.env, ...server.env }, extendEnv: false, reject: false });
      servers.push(child);
      await new Promise<void>((ok, fail) => {
        let text = '';
        const read = (c: Buffer): void => {
          text += c.toString();
          if (/https?:\/\/\S+/.test(text)) ok();
        };
        child.stdout?.on('data', read);
        // `voice listen` prints its address on stderr.
        if (args[0] === 'listen') child.stderr?.on('data', read);
        void child.then((r) => fail(new Error(`line ${block.line}: \`${command}\` ended (${String(r.exitCode)}): ${String(r.stderr)}`)));
      });
    }
    if (script.length === 0) return '';
    const env = { ...ctx.env, VOICE_DOCS_NODE: process.execPath, VOICE_DOCS_BIN: bin, VOICE_DOCS_URL: ctx.url };
    const r = await execa('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', PRELUDE + script.join('\n')], {
      cwd: ctx.dir,
      env,
      extendEnv: false,
      reject: false,
      input: '',
      timeout: 80_000,
      all: true,
    });
    if (r.exitCode !== 0) throw new Error(`line ${block.line}: exited ${String(r.exitCode)}:\n${String(r.all)}`);
    if (process.env.DOCS_SHOW) console.log(String(r.all));
    return String(r.all);
  } finally {
    for (const s of servers) s.kill('SIGINT');
    await Promise.allSettled(servers);
  }
}

/** The lines of an `output` block missing from what the shell block before it printed (`…` ends a line's checked part). */
export function missingOutput(expected: string, printed: string): string[] {
  const flat = (t: string): string => t.replace(/\s+/g, ' ').trim();
  const seen = flat(printed);
  return expected
    .split('\n')
    .map((line) => flat(line.split('…')[0] as string))
    .filter((line) => line !== '' && !seen.includes(line));
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
  // would give the browser one, so the module names the Node entry as Node would pick it.
  const code = block.lang === 'tsx' ? block.code : block.code.replace(/(from\s+['"])voice-agent-core\/client(['"])/g, '$1voice-agent-core/client/node$2');
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
