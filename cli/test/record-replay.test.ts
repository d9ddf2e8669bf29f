// Record a real emulator call with `voice listen --record`, then replay it against the handler
// with `voice trigger --replay --diff`: clean when the handler is unchanged, exit 1 when a tool
// result changed. Real bin/voice.js processes; the emulator and the handler run in this process.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHook } from '#core/emulator/calls/testing';
import type { Hook } from '#core/emulator/calls/testing';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import { ROOT, ensureBuilt } from './build.js';

const BIN = join(ROOT, 'bin', 'voice.js');
const home = mkdtempSync(join(tmpdir(), 'voice-replay-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
let result = 'Booked for Monday 10am.';
let app: Hook;
let emu: Emulator;

beforeAll(async () => {
  ensureBuilt();
  app = await startHook((r) => {
    if (r.message.type !== 'tool-calls') return undefined;
    const calls = r.message.toolCallList as { id: string }[];
    return { json: { results: calls.map((c) => ({ toolCallId: c.id, result })) } };
  });
  emu = await startEmulator({ speed: 200 });
});
afterAll(async () => {
  await emu.close();
  await app.close();
  rmSync(home, { recursive: true, force: true });
});

describe('voice listen --record and voice trigger --replay --diff', () => {
  it('replays a recorded call clean, and exits 1 when a tool result changed', async () => {
    const file = join(home, 'call.jsonl');
    const listen = execa(process.execPath, [BIN, 'listen', '--port', '0', '--forward-to', `${app.url}/hook`, '--record', file, '--json'], { env, extendEnv: false, reject: false, cwd: home });
    const url = await new Promise<string>((ok) => {
      let text = '';
      listen.stderr?.on('data', (c: Buffer) => {
        text += c.toString();
        const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
        if (m) ok(m[1] as string);
      });
    });
    try {
      const tool = await emu.client.tool.create({ type: 'function', function: { name: 'book' } });
      const assistant = await emu.client.assistant.create({
        name: 'B',
        firstMessage: 'Hi!',
        model: { provider: 'openai', model: 'gpt-4o', toolIds: [tool.id] },
        server: { url, headers: { 'x-vapi-secret': 'hush-123' } },
      });
      const call = await emu.client.call.create({ assistantId: assistant.id, customer: { number: '+14155550100' } });
      await emu.waitForCall(call.id, 'ended');
    } finally {
      listen.kill('SIGINT');
      await listen;
    }
    const text = readFileSync(file, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; answer: unknown });
    expect(lines.map((l) => l.type)).toContain('tool-calls');
    expect(lines.at(-1)?.type).toBe('end-of-call-report');
    expect(text).not.toContain('hush-123');

    const clean = await execa(process.execPath, [BIN, 'trigger', '--replay', file, '--forward-to', `${app.url}/hook`, '--diff'], { env, extendEnv: false, reject: false, cwd: home });
    expect(clean.exitCode, String(clean.stderr)).toBe(0);
    expect(String(clean.stderr)).toContain(`All ${lines.length} answers match the recording.`);

    result = 'Booked for Tuesday 9am.';
    const changed = await execa(process.execPath, [BIN, 'trigger', '--replay', file, '--forward-to', `${app.url}/hook`, '--diff'], { env, extendEnv: false, reject: false, cwd: home });
    expect(changed.exitCode).toBe(1);
    expect(String(changed.stdout)).toContain('differs at results.0.result: recorded "Booked for Monday 10am.", now "Booked for Tuesday 9am."');
    const ignored = await execa(process.execPath, [BIN, 'trigger', '--replay', file, '--forward-to', `${app.url}/hook`, '--diff', '--ignore', 'result'], {
      env,
      extendEnv: false,
      reject: false,
      cwd: home,
    });
    expect(ignored.exitCode, String(ignored.stdout)).toBe(0);
  });
});
