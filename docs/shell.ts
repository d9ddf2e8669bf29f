// Runs a guide's shell block in bash, with the built CLI as `voice` (see docs/harness.ts for the rules).
import { execa, type ResultPromise } from 'execa';
import { join } from 'node:path';
import { localise, type Block, type GuideContext } from './harness.js';
import { commandsOf, programsOf, wordsOf } from './words.js';

/** Programs a shell block may run besides `voice`: none of them reaches beyond this machine. */
const PROGRAMS = new Set(['voice', 'curl', 'jq', 'node', 'cat', 'echo', 'printf', 'test', 'grep', 'head', 'wc', 'ls', 'mkdir', 'cd', 'export', 'eval', 'openssl']);

/** `voice dev`, `voice demo`, `voice listen` or `voice mcp --http` serving (not a subcommand): started in the background. */
function serverArgs(command: string): { env: Record<string, string>; args: string[] } | undefined {
  const all = wordsOf(command);
  const first = all.findIndex((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  const words = all.slice(first);
  const args = words.slice(1);
  if (words[0] !== 'voice' || !['dev', 'demo', 'listen', 'mcp'].includes(args[0] ?? '') || !(args[1] === undefined || args[1].startsWith('-'))) return undefined;
  if (args[0] === 'mcp' && !args.includes('--http')) return undefined;
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
      const mcp = `http://127.0.0.1:${ctx.mcpPort ?? 4390}/`;
      const remote = /\bcurl\b/.test(command) ? (command.match(/https?:\/\/[^\s'"]+/g) ?? []).filter((u) => !u.startsWith(ctx.url) && !u.startsWith(mcp)) : [];
      if (remote.length) throw new Error(`line ${block.line}: curl may only reach the emulator and voice mcp: ${remote.join(', ')}`);
      const server = serverArgs(command);
      if (!server) {
        script.push(command);
        continue;
      }
      const args = server.args;
      const mcpServer = args[0] === 'mcp';
      const at = args.indexOf('--port');
      if (at >= 0) args.splice(at, 2);
      // `voice mcp --http PORT` keeps its port (localise() made it a free one).
      if (!mcpServer) args.push('--port', String(args[0] === 'listen' ? (ctx.listenPort ?? 0) : 0));
      // Through bash, for the variables earlier blocks exported (`export VOICE_MCP_TOKEN=...`), as in one terminal.
      const exec = 'if [ -f .docs-vars ]; then source .docs-vars; fi; exec "$@"';
      const child = execa('bash', ['--norc', '--noprofile', '-c', exec, 'bash', process.execPath, bin, ...args.filter((a) => a !== '--open')], {
        cwd: ctx.dir,
        env: { ...ctx.env, ...server.env },
        extendEnv: false,
        reject: false,
      });
      servers.push(child);
      await new Promise<void>((ok, fail) => {
        let text = '';
        // `voice mcp` names its local platform before the address it serves.
        const ready = mcpServer ? /streamable HTTP on http:\/\/\S+/ : /https?:\/\/\S+/;
        const read = (c: Buffer): void => {
          text += c.toString();
          if (ready.test(text)) ok();
        };
        child.stdout?.on('data', read);
        // `voice listen` and `voice mcp` print their address on stderr.
        if (args[0] === 'listen' || mcpServer) child.stderr?.on('data', read);
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
