// Runs the code blocks of a Markdown guide, in order, against an emulator started for that guide.
// A fence's info string says what happens to its block:
//   ```ts / ```tsx / ```js    a module, imported (top-level await allowed); it must not throw
//   ```sh / ```bash           each command is `voice ...`, run through the built bin/voice.js; it
//                             must exit 0 (`voice dev` and `voice demo` are started on port 0 and
//                             stopped once they print their URL)
//   ```<lang> norun           shown only: a block that cannot run here (say why in the text)
//   ```<lang> tested-in=PATH  run by the test at PATH, which needs what this harness lacks (a
//                             server of yours, a model); PATH must exist and name the guide
//   ```<lang> file=PATH       must equal the repository's file PATH, which runs in the suite itself
//   a block whose first line is `# file: NAME` (yaml) or `// file: NAME` (ts, json) is written to
//   the guide's working folder first, for the blocks after it
// Other blocks (yaml, json, text, output) are data or output and are not run.
// In every block, `http://127.0.0.1:4010` (the emulator's default address) becomes the address of
// the guide's own emulator, and `--local` also names it.
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
    const words = info.trim().split(/\s+/).filter(Boolean);
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

/** What the harness does with a block. */
export function kindOf(block: Block): 'shown' | 'elsewhere' | 'mirror' | 'write' | 'module' | 'shell' | 'data' {
  if (block.flags.includes('norun')) return 'shown';
  if (testedIn(block)) return 'elsewhere';
  if (block.file) return 'mirror';
  if (/^(#|\/\/) file: \S+/.test(block.code)) return 'write';
  if (['ts', 'tsx', 'js', 'mjs'].includes(block.lang)) return 'module';
  if (['sh', 'bash', 'shell', 'console'].includes(block.lang)) return 'shell';
  return 'data';
}

/** Splits a shell block into commands: comments and blank lines dropped, `\` continuations joined. */
export function commandsOf(code: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const raw of code.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').replace(/^#.*$/, '');
    if (line.trim() === '' && current === '') continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    current += line;
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

/** The block's text with the default emulator address replaced by the guide's. */
export function localise(code: string, url: string): string {
  return code.replaceAll('http://127.0.0.1:4010', url).replaceAll('ws://127.0.0.1:4010', url.replace(/^http/, 'ws'));
}

/** Runs one shell block's commands in order; rejects naming the first that fails. */
export async function runShell(block: Block, ctx: GuideContext): Promise<void> {
  const servers: ResultPromise[] = [];
  try {
    for (const command of commandsOf(localise(block.code, ctx.url))) {
      const all = wordsOf(command);
      // Leading NAME=value words set the command's environment, as a shell does.
      const vars = all
        .slice(
          0,
          all.findIndex((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w)),
        )
        .map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]);
      const words = all.slice(vars.length);
      const env = { ...ctx.env, ...Object.fromEntries(vars) };
      if (words[0] !== 'voice') throw new Error(`line ${block.line}: only \`voice ...\` commands run here; mark the block \`norun\` if it cannot: ${command}`);
      let args = words.slice(1);
      if (args.includes('--local') && !args.includes('--api-url')) args = [...args, '--api-url', ctx.url];
      const server = (args[0] === 'dev' || args[0] === 'demo') && (args[1] === undefined || args[1].startsWith('-'));
      if (server) {
        const at = args.indexOf('--port');
        if (at >= 0) args.splice(at, 2);
        args.push('--port', '0');
        const child = execa(process.execPath, [join(ctx.root, 'bin', 'voice.js'), ...args], { cwd: ctx.dir, env, extendEnv: false, reject: false });
        servers.push(child);
        await new Promise<void>((ok, fail) => {
          let text = '';
          child.stdout?.on('data', (c: Buffer) => {
            text += c.toString();
            if (/https?:\/\/\S+/.test(text)) ok();
          });
          void child.then((r) => fail(new Error(`line ${block.line}: \`${command}\` ended (${String(r.exitCode)}): ${String(r.stderr)}`)));
        });
        continue;
      }
      const r = await execa(process.execPath, [join(ctx.root, 'bin', 'voice.js'), ...args], { cwd: ctx.dir, env, extendEnv: false, reject: false, input: '', timeout: 60_000 });
      if (r.exitCode !== 0) throw new Error(`line ${block.line}: \`${command}\` exited ${String(r.exitCode)}:\n${String(r.stderr)}${String(r.stdout)}`);
    }
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
  writeFileSync(file, localise(block.code, ctx.url));
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
