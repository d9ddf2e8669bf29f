// Cassettes end to end: a call recorded against a model replays with no model reachable and
// gives the same transcript; a changed prompt misses, and the call's log names the turn and file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel } from '../../model/testing.js';
import { startEmulator } from '../index.js';
import type { Scenario } from './scenario.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
const scenario: Scenario = { turns: [{ say: 'Where is parcel 9?' }, { say: 'Thanks!' }] };
type Obj = Record<string, unknown>;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'voice-cassette-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const assistant = (prompt: string) => ({ firstMessage: 'Parcel desk.', model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: prompt }] } });

async function call(model: { url?: string; record?: string; replay?: string; apiKey?: string }, prompt: string): Promise<{ call: Obj; logs: string[] }> {
  const emu = await startEmulator({ speed: 1000, scenario, model });
  try {
    const res = await fetch(`${emu.url}/call`, { method: 'POST', headers, body: JSON.stringify({ customer: { number: '+14155550177' }, assistant: assistant(prompt) }) });
    const { id } = (await res.json()) as { id: string };
    await emu.calls.idle();
    const logs = emu.record.list({ callId: id }).flatMap((e) => (e.kind === 'call.log' ? [e.text] : []));
    return { call: (await (await fetch(`${emu.url}/call/${id}`, { headers })).json()) as Obj, logs };
  } finally {
    await emu.close();
  }
}

describe('record, then replay with no model', () => {
  it('replays the same transcript; a changed prompt misses with the turn and the file named', async () => {
    const file = join(dir, 'model.cassette.json');
    const fake = await startFakeModel([{ text: 'It is in Leeds.' }, { text: 'Any time, bye!' }]);
    const recorded = await call({ url: fake.url, record: file, apiKey: 'sk-secret-123' }, 'You track parcels.');
    await fake.close();
    expect(recorded.call.endedReason).toBe('customer-ended-call');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('sk-secret-123');

    const replayed = await call({ url: fake.url, replay: file }, 'You track parcels.');
    expect(replayed.call.endedReason).toBe('customer-ended-call');
    expect((replayed.call.artifact as Obj).transcript).toBe((recorded.call.artifact as Obj).transcript);
    expect(String((replayed.call.artifact as Obj).transcript)).toContain('It is in Leeds.');

    const changed = await call({ url: fake.url, replay: file }, 'You track parcels politely.');
    expect(changed.call.endedReason).toBe('call.in-progress.error-providerfault-openai-llm-failed');
    const why = changed.logs.find((l) => l.startsWith('Model failed')) ?? '';
    expect(why).toContain(file);
    expect(why).toMatch(/turn 1/);
  });
});
