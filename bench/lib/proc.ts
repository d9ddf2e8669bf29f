// Launching commands for timing: start-to-exit wall time, peak memory, and the pseudo-terminal path.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** A command to launch: argv and environment overrides. */
export interface Command {
  argv: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** The GNU time binary used for peak memory (ru_maxrss), when installed. */
export const GNU_TIME = process.env.VOICE_BENCH_GNU_TIME ?? '/usr/bin/time';

/** Quotes one argument for `sh -c`. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Wraps a command so it runs on a pseudo-terminal through util-linux `script`. */
export function onPty(command: Command): Command {
  const inner = command.argv.map(shellQuote).join(' ');
  const out: Command = { argv: ['script', '-qefc', inner, '/dev/null'] };
  if (command.env) out.env = command.env;
  if (command.cwd) out.cwd = command.cwd;
  return out;
}

/** Result of one launch. */
export interface RunResult {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Launches a command, waits for it to exit (bounded by timeoutMs) and returns the wall time. */
export function run(command: Command, timeoutMs = 30_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = command.argv;
    const start = performance.now();
    const child = spawn(file as string, args, {
      cwd: command.cwd,
      env: { ...process.env, ...command.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < 1e6) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < 1e6) stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - start, code, stdout, stderr });
    });
  });
}

/** Launches a command and fails with its output when it does not exit 0. */
export async function runOk(command: Command, timeoutMs?: number): Promise<RunResult> {
  const result = await run(command, timeoutMs);
  if (result.code !== 0) {
    const tail = (result.stderr || result.stdout).trim().split('\n').slice(-5).join('\n');
    throw new Error(`\`${command.argv.join(' ')}\` exited ${result.code}: ${tail}`);
  }
  return result;
}

/** How peak memory is read on this machine (named in the results). */
export const MEMORY_METHOD = existsSync(GNU_TIME) ? 'GNU time %M (ru_maxrss)' : 'process.resourceUsage().maxRSS at exit (preloaded through NODE_OPTIONS; GNU time not installed)';

// Fallback when GNU time is missing: every node process writes its own peak RSS when it exits.
const RSS_PRELOAD =
  "--import=data:text/javascript,import{writeFileSync}from'node:fs';" + "process.on('exit',()=>writeFileSync(process.env.VOICE_BENCH_RSS_FILE,String(process.resourceUsage().maxRSS)))";

/**
 * Peak resident memory (KiB) of a command: GNU time's `%M` (the child's ru_maxrss), written to a
 * file so the command's own output stays untouched; for pty commands the time wrapper goes inside
 * `script`, so the figure is the command's, not script's. Without GNU time, see MEMORY_METHOD.
 */
export async function peakMemoryKiB(command: Command, dir: string, pty = false): Promise<number> {
  const file = join(dir, `maxrss-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
  let measured: Command;
  if (existsSync(GNU_TIME)) {
    measured = { ...command, argv: [GNU_TIME, '-f', '%M', '-o', file, ...command.argv] };
  } else {
    const options = [command.env?.NODE_OPTIONS ?? process.env.NODE_OPTIONS ?? '', RSS_PRELOAD].join(' ').trim();
    measured = { ...command, env: { ...command.env, NODE_OPTIONS: options, VOICE_BENCH_RSS_FILE: file } };
  }
  await runOk(pty ? onPty(measured) : measured);
  const kib = Number(readFileSync(file, 'utf8').trim().split('\n').pop());
  rmSync(file, { force: true });
  if (!Number.isFinite(kib)) throw new Error(`could not read peak memory of \`${command.argv.join(' ')}\``);
  return kib;
}
