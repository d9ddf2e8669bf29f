// Runs the real `bin/voice.js` as a process against an emulator on a loopback port, with a
// temp config folder, and keeps every output so tests can check that no key ever leaks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, expect } from 'vitest';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator, EmulatorOptions } from 'voice-agent-core/emulator';
import { ROOT, ensureBuilt } from './build.js';

/** The key every CLI test uses; it must never appear in any output. */
export const KEY = 'sk-test-SECRET-0123456789abcdef';
const BIN = join(ROOT, 'bin', 'voice.js');

/** One finished CLI run. */
export interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Every output captured in this test file, for the leak scan. */
export const captured: string[] = [];

/** A test environment: an emulator, a temp HOME/XDG config folder, and a runner. */
export interface Harness {
  emu: Emulator;
  home: string;
  configDir: string;
  env: Record<string, string>;
  voice(args: readonly string[], opts?: { env?: Record<string, string | undefined>; input?: string; timeout?: number }): Promise<Run>;
  close(): Promise<void>;
}

/** Starts an emulator and prepares a clean environment for `voice`. */
export async function harness(options: EmulatorOptions = {}): Promise<Harness> {
  ensureBuilt();
  const emu = await startEmulator({ port: 0, ...options });
  const home = mkdtempSync(join(tmpdir(), 'voice-cli-test-'));
  const configDir = join(home, 'xdg');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: configDir,
    VOICE_API_URL: emu.url,
    VOICE_API_KEY: KEY,
  };
  return {
    emu,
    home,
    configDir,
    env,
    async voice(args, opts = {}) {
      const merged: Record<string, string> = { ...env };
      for (const [k, v] of Object.entries(opts.env ?? {})) {
        if (v === undefined) delete merged[k];
        else merged[k] = v;
      }
      const r = await execa(process.execPath, [BIN, ...args], {
        env: merged,
        extendEnv: false,
        reject: false,
        input: opts.input ?? '',
        timeout: opts.timeout ?? 20_000,
        cwd: home,
        stripFinalNewline: false,
      });
      const run = { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
      captured.push(run.stdout, run.stderr);
      return run;
    },
    async close() {
      await emu.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Runs tasks with at most `n` at a time. */
export async function pool<T, R>(items: readonly T[], n: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return results;
}

/** Parses a JSON stdout, failing the test with the output when it is not JSON. */
export function json<T = unknown>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${run.exitCode}):\n${run.stdout}\n${run.stderr}`);
  }
}

/**
 * One harness for a whole test file, started before its tests; afterwards it is closed and every
 * output captured so far is checked for the API key, which must never be printed.
 */
export function fileHarness(options: EmulatorOptions = {}): { readonly current: Harness } {
  const ref = {} as { current: Harness };
  beforeAll(async () => {
    ref.current = await harness(options);
  });
  afterAll(async () => {
    await ref.current?.close();
    expect(captured.join('\n')).not.toContain(KEY);
  });
  return ref;
}

/** Resolves with a background `voice` process's first stdout line (`voice dev` prints its URL there); rejects if it ends first. */
export function firstLine(proc: { stdout: NodeJS.ReadableStream | null; then: Promise<{ exitCode?: number; stderr?: unknown }>['then'] }): Promise<string> {
  return new Promise<string>((ok, fail) => {
    let text = '';
    proc.stdout?.on('data', (c: Buffer) => {
      text += c.toString();
      if (text.includes('\n')) ok(text.split('\n')[0] as string);
    });
    void proc.then((r) => fail(new Error(`voice dev ended (${String(r.exitCode)}): ${String(r.stderr)}`)));
  });
}
