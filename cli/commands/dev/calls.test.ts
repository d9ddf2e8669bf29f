// `voice dev` runs calls: --speed, --scenario, one stderr line per delivery, and `voice dev ring`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startHook, until } from '#core/emulator/calls/testing';
import { CliError } from '../../errors.js';
import { devCommand } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'voice-dev-calls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const headers = { authorization: 'Bearer any-key', 'content-type': 'application/json' };

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  let wake: (() => void) | undefined;
  return {
    out,
    err,
    io: { out: (t: string) => (out.push(t), wake?.()), err: (t: string) => void err.push(t) },
    url: () => new Promise<string>((r) => (out.length ? r((out[0] as string).trim()) : (wake = () => r((out[0] as string).trim())))),
  };
}

describe('voice dev runs calls', () => {
  it('follows --scenario at --speed, prints one line per delivery, and rings numbers with `voice dev ring`', async () => {
    const scenario = join(dir, 'short.yaml');
    writeFileSync(scenario, 'turns:\n  - say: Just one question.\n  - say: Bye.\n    hangup: true\n');
    const app = await startHook();
    const t = capture();
    const running = devCommand(t.io).parseAsync(['--port', '0', '--speed', '1000', '--scenario', scenario], { from: 'user' });
    const url = await t.url();
    try {
      const assistant = (await (
        await fetch(`${url}/assistant`, { method: 'POST', headers, body: JSON.stringify({ name: 'D', firstMessage: 'Hi there.', server: { url: `${app.url}/hook` } }) })
      ).json()) as { id: string };
      const pn = (await (await fetch(`${url}/phone-number`, { method: 'POST', headers, body: JSON.stringify({ provider: 'vapi', assistantId: assistant.id }) })).json()) as { id: string };

      const r = capture();
      await devCommand(r.io).parseAsync(['ring', pn.id, '--from', '+14155550100', '--api-url', url], { from: 'user' });
      const callId = (r.out[0] as string).trim();
      expect(r.err.join('')).toContain(`voice call watch ${callId} --local --api-url ${url}`);

      const call = await until(async () => {
        const c = (await (await fetch(`${url}/call/${callId}`, { headers })).json()) as { status: string; artifact?: { transcript: string }; endedReason?: string };
        return c.status === 'ended' ? c : undefined;
      });
      expect(call.endedReason).toBe('customer-ended-call');
      expect(call.artifact?.transcript).toBe('AI: Hi there.\nUser: Just one question.\nAI: Sure, I can help with that.\nUser: Bye.');
      await until(async () => (app.types(callId).includes('end-of-call-report') ? true : undefined));
      const printed = (): string[] =>
        t.err
          .join('')
          .split('\n')
          .filter((l) => l.includes(` call ${callId.slice(0, 8)} `));
      // A delivery's line is printed once its answer is back, after the server has the message:
      // wait for the last one (a busy machine once counted 16 lines of 17).
      const lines = await until(() => (printed().length >= app.types(callId).length ? printed() : undefined)).catch(() => printed());
      expect(lines.length).toBe(app.types(callId).length);
      expect(lines.find((l) => l.includes('end-of-call-report'))).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} call ${callId.slice(0, 8)} end-of-call-report -> ${app.url}/hook 200 \\d+ ms$`));
    } finally {
      process.emit('SIGINT');
      await running;
      await app.close();
    }
  }, 30_000);

  it('refuses a broken scenario, a bad --speed and an unknown number with clear messages', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'turns:\n  - shout: hello\n');
    const err = await devCommand(capture().io)
      .parseAsync(['--port', '0', '--scenario', bad], { from: 'user' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(2);
    expect((err as CliError).message).toContain('turns[0] has an unknown field "shout"');

    const t = capture();
    const cmd = devCommand(t.io)
      .exitOverride()
      .configureOutput({ writeErr: (s) => t.err.push(s) });
    await expect(cmd.parseAsync(['--speed', '0'], { from: 'user' })).rejects.toThrow();
    expect(t.err.join('')).toContain('expected a number above 0');

    const none = await devCommand(capture().io)
      .parseAsync(['ring', 'pn-1', '--api-url', 'http://127.0.0.1:9'], { from: 'user' })
      .catch((e: unknown) => e);
    expect((none as CliError).message).toContain('No emulator answers at http://127.0.0.1:9');
  });
});
