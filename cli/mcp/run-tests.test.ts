// `run_tests` over stdio on a local platform, as a coding agent calls it: before the folder is
// applied it says how to apply it (a command that works as printed), after it runs `voice test` there.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execa } from 'execa';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../test/build.js';

const BIN = join(ROOT, 'bin', 'voice.js');
let emu: Emulator;
let client: Client;
let dir: string;
let config: string;

beforeAll(async () => {
  ensureBuilt();
  emu = await startEmulator({});
  dir = mkdtempSync(join(tmpdir(), 'voice-mcp-run-tests-'));
  config = mkdtempSync(join(tmpdir(), 'voice-mcp-config-'));
  cpSync(join(ROOT, 'fixtures', 'gitops', 'starter'), join(dir, 'resources'), { recursive: true });
  // No key anywhere, as on a fresh machine: the local platform must not need one.
  const env: Record<string, string> = { ...(process.env as Record<string, string>), NO_COLOR: '1', XDG_CONFIG_HOME: config };
  delete env.VOICE_API_KEY;
  delete env.VAPI_API_KEY;
  delete env.VAPI_TOKEN;
  client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--api-url', emu.url], env, stderr: 'pipe', cwd: dir }));
}, 120_000);

afterAll(async () => {
  await client?.close();
  await emu?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(config, { recursive: true, force: true });
});

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return ((result.content as { text: string }[])[0] as { text: string }).text;
}

it('run_tests on the local platform needs no key: it names the apply command, then runs the folder', async () => {
  const folder = join(dir, 'resources');
  const before = await client.callTool({ name: 'run_tests', arguments: { dir: folder } });
  expect(before.isError).toBe(true);
  expect(textOf(before)).not.toContain('No API key');
  const hint = /voice apply (.+)$/m.exec(textOf(before))?.[1];
  expect(hint).toBe(`--dir ${folder} --local --api-url ${emu.url}`);

  const applied = await execa(process.execPath, [BIN, 'apply', ...(hint as string).split(' '), '--yes'], { reject: false, env: { XDG_CONFIG_HOME: config, VOICE_API_KEY: '' } });
  expect(applied.stderr + applied.stdout).not.toContain('No API key');
  expect(applied.exitCode).toBe(0);

  const after = await client.callTool({ name: 'run_tests', arguments: { dir: folder } });
  expect(after.isError, textOf(after)).toBeFalsy();
  const out = JSON.parse(textOf(after)) as { passed: boolean; exitCode: number; result: unknown };
  // The emulator has no model, so nothing is judged and nothing may pass.
  expect(out.passed).toBe(false);
  expect(out.exitCode).toBe(1);
  expect(JSON.stringify(out.result)).toContain('No model is configured');
}, 180_000);
