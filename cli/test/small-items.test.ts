// The small things a first hour trips on: `voice dev ring` says how to watch the call (no curl
// lines), a busy port comes with a port checked to be free, every message type in `voice trigger
// --list` says what it is, and one change is "this change".
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileHarness, json } from './harness.js';

const hf = fileHarness();

describe('small items', () => {
  it('voice dev ring prints the call id and the watch command, not curl lines', async () => {
    const assistant = json<{ id: string }>(await hf.current.voice(['assistant', 'create', '--set', 'name=Ring me', '--json'])).id;
    const pn = json<{ id: string }>(await hf.current.voice(['phone-number', 'create', '--set', 'provider=vapi', '--set', `assistantId=${assistant}`, '--json'])).id;
    const run = await hf.current.voice(['dev', 'ring', pn, '--api-url', hf.current.emu.url]);
    expect(run.exitCode, run.stderr).toBe(0);
    const callId = run.stdout.trim();
    expect(callId).toMatch(/^[0-9a-f-]{36}$/);
    expect(run.stderr).toContain(`Follow it: voice call watch ${callId} --local --api-url ${hf.current.emu.url}`);
    expect(run.stderr).not.toContain('curl');
  });

  it('a busy port suggests one it checked is free', async () => {
    const run = await hf.current.voice(['dev', '--port', String(hf.current.emu.port)]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`Port ${hf.current.emu.port} on 127.0.0.1 is already in use.`);
    const free = Number(/: (\d+) is free, voice dev --port (\d+)/.exec(run.stderr)?.[1]);
    expect(free).toBeGreaterThan(hf.current.emu.port);
    // The port it names can be listened on (it was free when checked, and nothing took it since).
    await new Promise<void>((resolve, reject) => {
      const probe = createServer().once('error', reject);
      probe.listen(free, '127.0.0.1', () => probe.close(() => resolve()));
    });
  });

  it('voice trigger --list describes every type', async () => {
    const run = await hf.current.voice(['trigger', '--list']);
    expect(run.exitCode).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.length).toBeGreaterThan(20);
    for (const [type, , description] of rows) expect(description?.length, type).toBeGreaterThan(10);
  });

  it('asks about "this change" for one change, "these N changes" for more', async () => {
    const dir = join(hf.current.home, 'one');
    mkdirSync(join(dir, 'assistants'), { recursive: true });
    writeFileSync(join(dir, 'assistants', 'desk.yml'), 'name: Desk\n');
    const one = await hf.current.voice(['apply', '--dir', 'one']);
    expect(one.exitCode).toBe(2);
    expect(one.stderr).toContain('Refusing to apply this change to');
    writeFileSync(join(dir, 'assistants', 'line.yml'), 'name: Line\n');
    const two = await hf.current.voice(['apply', '--dir', 'one']);
    expect(two.stderr).toContain('Refusing to apply these 2 changes to');
  });
});
