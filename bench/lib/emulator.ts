// Runs the platform emulator in its own process (so load generator and server each get a core)
// and seeds it through plain HTTP.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { BenchContext } from './types.js';

/** A running emulator child process. */
export interface EmulatorProcess {
  url: string;
  close: () => Promise<void>;
}

/** The bearer token the benchmarks send (the emulator accepts any when started without a key). */
export const BENCH_KEY = 'bench-key';

/**
 * Starts the bundled emulator entry in a child process on the given port (0: any free port).
 * Resolves once it prints its URL; rejects with the child's error (e.g. EADDRINUSE) otherwise.
 */
export function startEmulatorProcess(ctx: BenchContext, port = 0, args: readonly string[] = []): Promise<EmulatorProcess> {
  return startServerProcess(ctx, 'VOICE_BENCH_EMULATOR_ENTRY', ['--port', String(port), ...args]);
}

/**
 * Starts the bundled server entry named by the environment variable `entryVar` (set by
 * bench/run.js) in a child process that prints `{"url": ...}` once listening.
 */
export function startServerProcess(ctx: BenchContext, entryVar: string, args: readonly string[]): Promise<EmulatorProcess> {
  const entry = process.env[entryVar];
  if (!entry) return Promise.reject(new Error(`${entryVar} is not set (run through bench/run.js)`));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd: ctx.root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entryVar} did not start within 20 s`));
    }, 20_000);
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      clearTimeout(timer);
      let message: { url?: string; error?: string; code?: string };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        message = { error: `unexpected output: ${line}` };
      }
      if (!message.url) {
        child.kill('SIGKILL');
        reject(Object.assign(new Error(message.error ?? 'the emulator did not start'), { code: message.code }));
        return;
      }
      const url = message.url.replace(/\/$/, '');
      resolve({
        url,
        close: async () => {
          child.stdin?.end();
          const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
  });
}

/** Runs `fn` against a fresh emulator process (see startEmulatorProcess) and stops it afterwards. */
export async function withEmulatorProcess<T>(ctx: BenchContext, fn: (url: string) => Promise<T>, args: readonly string[] = []): Promise<T> {
  const emulator = await startEmulatorProcess(ctx, 0, args);
  try {
    return await fn(emulator.url);
  } finally {
    await emulator.close();
  }
}

/** Creates assistants through the API and returns their ids. */
export async function seedAssistants(url: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${url}/assistant`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(assistantBody(i)),
    });
    if (!response.ok) throw new Error(`seeding: POST /assistant answered ${response.status}`);
    ids.push(((await response.json()) as { id: string }).id);
  }
  return ids;
}

/** A realistic small assistant body, the same for every client measured. */
export function assistantBody(i: number): Record<string, unknown> {
  return {
    name: `Bench assistant ${i}`,
    firstMessage: 'Hello, how can I help?',
    model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You are helpful.' }] },
    voice: { provider: 'vapi', voiceId: 'Elliot' },
  };
}
