// A call becomes the developer's as soon as they speak in it, through the built CLI: after
// `voice call say` (and MCP `test_call`'s `say`) the scripted customer says nothing more; the
// assistant answers the developer's lines, and the call ends after 30 s without one
// (`silence-timed-out`, the platform's default silence timeout).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '#core/emulator/calls/testing';
import { DEFAULT_SCENARIO } from 'voice-agent-core/emulator';
import { connect, textOf } from '../commands/mcp/mcp-client.test-support.js';
import { ROOT, ensureBuilt } from './build.js';
import { firstLine } from './harness.js';

const BIN = join(ROOT, 'bin', 'voice.js');
const home = mkdtempSync(join(tmpdir(), 'voice-say-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
const auth = { authorization: 'Bearer any-key', 'content-type': 'application/json' };
const MINE = 'Hi, where is my parcel?';
/** What the built-in scripted customer says. */
const SCRIPT = DEFAULT_SCENARIO.turns.map((t) => t.say).filter((say): say is string => Boolean(say));

interface Message {
  role: string;
  message?: string;
}

/** The customer's lines after `line` in a call's messages. */
function customerAfter(messages: Message[], line: string): string[] {
  const at = messages.findIndex((m) => m.role === 'user' && m.message === line);
  expect(at, JSON.stringify(messages)).toBeGreaterThanOrEqual(0);
  return messages.slice(at + 1).flatMap((m) => (m.role === 'user' ? [String(m.message)] : []));
}

let dev: ResultPromise;
let url: string;

beforeAll(async () => {
  ensureBuilt();
  dev = execa(process.execPath, [BIN, 'dev', '--port', '0', '--quiet', '--no-inspector', '--speed', '5'], { env, extendEnv: false, reject: false, cwd: home });
  url = await firstLine(dev);
}, 60_000);
afterAll(async () => {
  dev?.kill('SIGINT');
  await dev;
  rmSync(home, { recursive: true, force: true });
});

describe('voice call say', () => {
  it('stops the scripted customer: only the developer speaks as the customer from then on, and silence ends the call', async () => {
    const assistant = { name: 'Parcels', firstMessage: 'Parcel desk, hello.', model: { provider: 'openai', model: 'gpt-4o-mini' } };
    const { id } = (await (await fetch(`${url}/call`, { method: 'POST', headers: auth, body: JSON.stringify({ assistant, customer: { number: '+14155550100' } }) })).json()) as { id: string };
    await until(async () => (((await (await fetch(`${url}/call/${id}`, { headers: auth })).json()) as { status: string }).status === 'in-progress' ? true : undefined), 30_000);
    const said = await execa(process.execPath, [BIN, 'call', 'say', id, MINE, '--local', '--api-url', url], { env, extendEnv: false, reject: false });
    expect(said.exitCode, String(said.stderr)).toBe(0);
    const ended = await until(async () => {
      const call = (await (await fetch(`${url}/call/${id}`, { headers: auth })).json()) as { status: string; endedReason?: string; messages?: Message[] };
      return call.status === 'ended' ? call : undefined;
    }, 60_000);
    expect(customerAfter(ended.messages ?? [], MINE)).toEqual([]);
    expect(ended.endedReason).toBe('silence-timed-out');
    const logs = ((await (await fetch(`${url}/log?callId=${id}`, { headers: auth })).json()) as { results: { log: string }[] }).results.map((l) => l.log);
    expect(logs.join('\n')).toContain('it is yours now: the scripted customer says nothing more');
  }, 120_000);
});

describe('MCP test_call with say', () => {
  it('speaks only the lines given once they start: no scripted line follows them', async () => {
    const agent = await connect(['mcp', '--api-url', url]);
    try {
      const made = JSON.parse(textOf(await agent.client.callTool({ name: 'upsert_assistant', arguments: { name: 'Parcels', firstMessage: 'Parcel desk, hello.' } }))) as { assistantId: string };
      const result = await agent.client.callTool({ name: 'test_call', arguments: { assistantId: made.assistantId, say: [MINE, 'It was sent on Monday.'] } });
      expect(result.isError, textOf(result)).toBeFalsy();
      const report = JSON.parse(textOf(result)) as { endedReason: string; transcript: { items: { role: string; text: string }[] } };
      const customer = report.transcript.items.filter((m) => m.role === 'customer').map((m) => m.text);
      expect(customer.slice(customer.indexOf(MINE))).toEqual([MINE, 'It was sent on Monday.']);
      expect(customer.filter((line) => SCRIPT.includes(line)).length).toBeLessThanOrEqual(1);
      expect(report.endedReason).toBe('silence-timed-out');
    } finally {
      await agent.client.close();
    }
  }, 180_000);
});
