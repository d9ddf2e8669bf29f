// Scenario files: the shipped examples load, bad ones are refused naming the turn and the field,
// and a scripted call follows them (tool arguments, interruption, hang, the assistant ending it).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { messageProblems } from '../../messages/testing.js';
import { loadScenario, parseScenario, ScenarioError, startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { startHook } from './testing.js';

const fixtures = join(import.meta.dirname, '../../../fixtures/scenarios');
const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
const open: Emulator[] = [];
afterAll(() => Promise.all(open.map((e) => e.close())));

describe('scenario files', () => {
  it('loads the shipped YAML and JSON examples', async () => {
    expect((await loadScenario(join(fixtures, 'squad-handoff.yaml'))).turns[0]).toEqual({ say: 'Hi, I have a question about my bill.', handoff: 'Billing' });
    expect((await loadScenario(join(fixtures, 'booking.json'))).turns).toHaveLength(4);
  });

  it('reads what the customer does on the audio: pauses mid-sentence, talking over the assistant, keys, noise', async () => {
    const text = [
      'noise: { snrDb: 5, seed: 3, color: pink }',
      'turns:',
      '  - say: "I\'d like to book [0.8s] a table"',
      '  - say: [Tuesday, 1.5, at seven]',
      '    interrupt: { afterWords: 2 }',
      '  - say: "Sorry"',
      '    interrupt: true',
      '    dtmf: "12#"',
    ].join('\n');
    const scenario = await parseScenario(text, 'audio.yaml');
    expect(scenario.noise).toEqual({ snrDb: 5, seed: 3, color: 'pink' });
    expect(scenario.turns).toEqual([{ say: "I'd like to book [0.8s] a table" }, { say: ['Tuesday', 1.5, 'at seven'], interrupt: { afterWords: 2 } }, { say: 'Sorry', interrupt: true, dtmf: '12#' }]);
  });

  it.each([
    ['turns: []', /"turns" must be a non-empty list/],
    ['turns:\n  - say: 3', /turns\[0\]\.say must be text/],
    ['turns:\n  - say: "wait [90s] for it"', /turns\[0\]\.say cannot be said: a pause of 90 s is longer than 60 s/],
    ['turns:\n  - say: ["hello", -1]', /turns\[0\]\.say cannot be said: a pause must be 0 to 60 seconds/],
    ['turns:\n  - say: "[1s]"', /turns\[0\]\.say cannot be said: it says nothing/],
    ['turns:\n  - say: hi\n    interrupt: { afterWords: 0 }', /turns\[0\]\.interrupt must be true, \{ afterSeconds/],
    ['turns:\n  - interrupt: true', /turns\[0\]\.interrupt needs a say/],
    ['turns:\n  - dtmf: "12x"', /turns\[0\]\.dtmf must be keypad keys/],
    ['noise: { snrDb: 5, level: 3 }\nturns:\n  - say: hi', /noise has an unknown field "level"/],
    ['noise: { snrDb: "loud" }\nturns:\n  - say: hi', /noise\.snrDb must be a number of decibels/],
    ['turn:\n  - say: hi\nturns:\n  - say: hi', /unknown field "turn" \(known: name, turns, noise\)/],
    ['turns:\n  - say: hi\n    pauseSeconds: -1', /turns\[0\]\.pauseSeconds must be a number of seconds/],
    ['turns:\n  - hangup: yes please', /turns\[0\]\.hangup must be true or false/],
    ['turns:\n  - tools: [{ arguments: {} }]', /turns\[0\]\.tools\[0\] needs a name/],
    ['turns: [', /not valid YAML or JSON/],
  ])('refuses %j', async (text, message) => {
    await expect(parseScenario(text, 'bad.yaml')).rejects.toThrow(message);
    await expect(parseScenario(text, 'bad.yaml')).rejects.toBeInstanceOf(ScenarioError);
  });

  it('names a missing file', async () => {
    await expect(loadScenario(join(fixtures, 'nope.yaml'))).rejects.toThrow(/Cannot read scenario file .*nope\.yaml: no such file/);
  });

  it('drives a call: scripted tool arguments, an interruption, the assistant ending the call', async () => {
    const app = await startHook((r) =>
      r.message.type === 'tool-calls' ? { json: { results: [{ toolCallId: (r.message.toolCallList as { id: string }[])[0]?.id, result: 'Tuesday it is.' }] } } : undefined,
    );
    const emu = await startEmulator({ speed: 2000, scenario: await loadScenario(join(fixtures, 'booking.json')) });
    open.push(emu);
    try {
      const res = await fetch(`${emu.url}/call`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          assistant: {
            name: 'Booker',
            firstMessage: 'Booker speaking.',
            endCallMessage: 'See you Tuesday.',
            serverMessages: ['tool-calls', 'user-interrupted', 'hang', 'end-of-call-report'],
            server: { url: app.url },
            model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'function', function: { name: 'bookAppointment' } }, { type: 'endCall' }] },
          },
          customer: { number: '+14155550188' },
        }),
      });
      const call = (await res.json()) as { id: string };
      await emu.calls.idle();
      const ended = (await (await fetch(`${emu.url}/call/${call.id}`, { headers })).json()) as { endedReason: string; artifact: { transcript: string } };
      expect(ended.endedReason).toBe('assistant-ended-call');
      expect(ended.artifact.transcript.split('\n')).toEqual([
        'AI: Booker speaking.',
        "User: Hello, I'd like to book an appointment.",
        'AI: Sure, I can help with that.',
        'User: Tuesday, please.',
        'AI: Tuesday it is.',
        "User: Wait, actually, that's fine.",
        'AI: Sure, I can help with that.',
        'User: Goodbye.',
        'AI: See you Tuesday.',
      ]);
      expect(app.types()).toEqual(['tool-calls', 'user-interrupted', 'end-of-call-report']);
      expect((app.received[0]?.message.toolCallList as { function: { arguments: string } }[])[0]?.function.arguments).toBe('{"day":"tuesday"}');
      expect(await messageProblems(app.received.map((r) => r.message))).toEqual([]);
    } finally {
      await app.close();
    }
  }, 20_000);

  it('runs a web call when a client joins (no ringing), and each of `customers`', async () => {
    const app = await startHook();
    const emu = await startEmulator({ speed: 2000 });
    open.push(emu);
    try {
      const res = await fetch(`${emu.url}/call/web`, { method: 'POST', headers, body: JSON.stringify({ assistant: { name: 'Web', firstMessage: 'Hi from the browser.', server: { url: app.url } } }) });
      const web = (await res.json()) as { id: string; status: string };
      expect(web.status).toBe('queued');
      await new Promise((r) => setTimeout(r, 50));
      expect(app.received).toHaveLength(0); // nobody joined: it waits
      expect(emu.record.list({ callId: web.id })).toHaveLength(0);
      expect(emu.calls.join(web.id)?.id).toBe(web.id);
      expect(emu.calls.join(web.id)).toBeUndefined(); // already running
      const customers = await fetch(`${emu.url}/call`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ assistant: { name: 'Many', server: { url: app.url } }, customers: [{ number: '+14155550101' }, { number: '+14155550102' }] }),
      });
      const { results } = (await customers.json()) as { results: { id: string }[] };
      await emu.calls.idle();
      for (const r of results) expect(app.types(r.id).at(-1)).toBe('end-of-call-report');
      const statuses = app.received.filter((r) => (r.message.call as { id: string }).id === web.id && r.message.type === 'status-update').map((r) => r.message.status);
      expect(statuses).toEqual(['in-progress', 'ended']);
      expect(await messageProblems(app.received.map((r) => r.message))).toEqual([]);
    } finally {
      await app.close();
    }
  }, 20_000);
});

describe('a data file left by a killed emulator', () => {
  it('ends the phone calls that were running with worker-shutdown, and keeps queued web calls', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'voice-calls-'));
    const file = join(dir, 'data.json');
    const at = new Date().toISOString();
    const rec = (id: string, extra: object) => ({ id, orgId: 'o', createdAt: at, updatedAt: at, ...extra });
    writeFileSync(
      file,
      JSON.stringify({
        format: 'voice-emulator',
        version: 1,
        orgId: 'o',
        userId: 'u',
        collections: { call: [rec('c1', { type: 'outboundPhoneCall', status: 'in-progress' }), rec('c2', { type: 'webCall', status: 'queued' })] },
      }),
    );
    const emu = await startEmulator({ dataFile: file });
    open.push(emu);
    try {
      const get = async (id: string) => (await (await fetch(`${emu.url}/call/${id}`, { headers })).json()) as { status: string; endedReason?: string };
      expect(await get('c1')).toMatchObject({ status: 'ended', endedReason: 'worker-shutdown' });
      expect(await get('c2')).toMatchObject({ status: 'queued' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
