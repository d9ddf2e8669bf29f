// `voice trigger` as a real process against loopback servers standing in for the developer's:
// every message type, --set/-f/--call, answers judged (good, bad, 500, timeout), exit codes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeredMessageTypes, sampleAnswers, serverMessageTypes } from '#core/messages/index';
import { messageProblems } from '#core/messages/testing';
import { toneBytes } from '#core/emulator/calls/stack/voice-server.test-support';
import { devServer, messageOf } from './dev-server.js';
import type { DevServer, Got } from './dev-server.js';
import { KEY, fileHarness, json, pool } from './harness.js';

const h = fileHarness();
let server: DevServer;
const dir = mkdtempSync(join(tmpdir(), 'voice-trigger-'));

/** A correct answer for any message: results for each tool call, the sample answer otherwise. */
function goodAnswer(g: Got): unknown {
  const m = messageOf(g);
  // A custom voice server answers with the audio itself: 60 ms of tone a character, at the asked rate.
  if (m.type === 'voice-request') return toneBytes(String(m.text).length * 0.06, Number(m.sampleRate));
  if (m.type === 'tool-calls') return { results: (m.toolCallList as { id: string; function: { name: string } }[]).map((c) => ({ name: c.function.name, toolCallId: c.id, result: 'done' })) };
  return (sampleAnswers as Record<string, unknown>)[String(m.type)] ?? {};
}

beforeAll(async () => {
  server = await devServer((g) => {
    const mode = g.path.slice(1).split('?')[0];
    if (mode === 'fail') return { status: 500, body: { error: 'boom' } };
    if (mode === 'slow') return { delayMs: 3000, body: {} };
    if (mode === 'bad') return { body: { results: [{ result: 42 }] } };
    // The answer the platform's guides document: no `name`.
    if (mode === 'documented') return { body: { results: (messageOf(g).toolCallList as { id: string }[]).map((c) => ({ toolCallId: c.id, result: 'Booked.' })) } };
    if (mode === 'text') return { body: 'OK' };
    if (mode === 'number-assistant') return { body: { assistant: 5 } };
    if (mode === 'leaky') return { body: { ...(goodAnswer(g) as object), token: KEY, echo: g.headers['x-vapi-secret'] } };
    return { body: goodAnswer(g) };
  });
});
afterAll(() => server.close());

const last = (): Got => server.got[server.got.length - 1] as Got;

describe('voice trigger', () => {
  it('--list names every message type and which ones expect an answer', async () => {
    const r = await h.current.voice(['trigger', '--list', '--json']);
    expect(r.exitCode).toBe(0);
    const rows = json<{ type: string; expectsAnswer: boolean; about: string }[]>(r);
    expect(rows.map((x) => x.type)).toEqual([...serverMessageTypes]);
    expect(rows.find((x) => x.type === 'tool-calls')?.about).toMatch(/function tools/);
    expect(rows.every((x) => x.about.length > 10)).toBe(true);
    expect(
      rows
        .filter((x) => x.expectsAnswer)
        .map((x) => x.type)
        .sort(),
    ).toEqual([...answeredMessageTypes].sort());
    const plain = await h.current.voice(['trigger', '--list']);
    expect(plain.stdout).toContain('tool-calls\texpects an answer\tthe assistant calls your function tools');
    expect(plain.stdout).toContain('end-of-call-report\t\tthe call ended');
  });

  it('sends every message type as { message }, valid against its published schema, and passes a correct answer', async () => {
    const runs = await pool(serverMessageTypes, 3, async (type) => {
      const r = await h.current.voice(['trigger', type, '--forward-to', `${server.url}/all/${type}`, '--json']);
      const got = server.got.find((g) => g.path === `/all/${type}`);
      return { type, r, message: messageOf(got) };
    });
    for (const { type, r, message } of runs) {
      expect(r.exitCode, `${type}: ${r.stderr}`).toBe(0);
      expect(message.type).toBe(type);
      expect(typeof message.timestamp).toBe('number');
      expect(await messageProblems([message]), type).toEqual([]);
      const out = json<{ ok: boolean; status: number; valid: boolean | null; expectsAnswer: boolean }>(r);
      expect(out).toMatchObject({ ok: true, status: 200 });
      expect(out.valid).toBe((answeredMessageTypes as readonly string[]).includes(type) ? true : null);
    }
  }, 180_000);

  it('--set changes any field by dotted path, and the server receives it', async () => {
    const r = await h.current.voice([
      'trigger',
      'status-update',
      '--forward-to',
      `${server.url}/set`,
      '--set',
      'status=ended',
      '--set',
      'endedReason=customer-ended-call',
      '--set',
      'call.id=call-from-set',
      '--set',
      'customer.number=+15555550142',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const m = messageOf(last());
    expect(m).toMatchObject({ type: 'status-update', status: 'ended', endedReason: 'customer-ended-call', call: { id: 'call-from-set' }, customer: { number: '+15555550142' } });
    expect(r.stdout).toMatch(/^200 OK {2}\d+ ms$/m);
    expect(r.stdout).toContain('status-update expects no answer: delivered.');
    expect(r.stderr).toContain('call call-from-set');
  });

  it('a valid tool-calls answer exits 0; a wrong one exits 1 and says what is wrong', async () => {
    const good = await h.current.voice(['trigger', 'tool-calls', '--forward-to', `${server.url}/good`]);
    expect(good.exitCode, good.stderr).toBe(0);
    expect(good.stdout).toContain('Valid tool-calls answer.');
    expect(good.stdout).toContain('"result":"done"');

    const bad = await h.current.voice(['trigger', 'tool-calls', '--forward-to', `${server.url}/bad`]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout).toContain('Invalid tool-calls answer:');
    expect(bad.stdout).toMatch(/results\.0.*toolCallId/);
    expect(bad.stdout).toMatch(/results\.0\.result must be a string/);
    expect(bad.stdout).toContain('no result for tool call');
    expect(bad.stderr).toContain('is not what the platform expects');
  });

  it('the documented tool-calls answer ({ toolCallId, result }, no name) exits 0 with at most a note', async () => {
    const r = await h.current.voice(['trigger', 'tool-calls', '--forward-to', `${server.url}/documented`]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Valid tool-calls answer.');
    expect(r.stdout).toMatch(/Note: results\.0\.name is not given/);
    const asJson = json<{ ok: boolean; valid: boolean; notes: string[] }>(await h.current.voice(['trigger', 'tool-calls', '--forward-to', `${server.url}/documented`, '--json']));
    expect(asJson).toMatchObject({ ok: true, valid: true });
    expect(asJson.notes).toHaveLength(1);
  });

  it('judges assistant-request answers against the published response schema', async () => {
    const bad = await h.current.voice(['trigger', 'assistant-request', '--forward-to', `${server.url}/bad`, '--json']);
    expect(bad.exitCode).toBe(1);
    // `results` is no field of an assistant-request answer, and nothing names what to run.
    const verdict = json<{ problems: string[]; valid: boolean }>(bad);
    expect(verdict.valid).toBe(false);
    expect(verdict.problems.join('\n')).toContain('the call has nothing to run');
    const wrongType = await h.current.voice(['trigger', 'assistant-request', '--forward-to', `${server.url}/number-assistant`]);
    expect(wrongType.exitCode).toBe(1);
    expect(wrongType.stdout).toContain('assistant must be an object');
    const good = await h.current.voice(['trigger', 'assistant-request', '--forward-to', `${server.url}/good`]);
    expect(good.exitCode, good.stdout + good.stderr).toBe(0);
    const text = await h.current.voice(['trigger', 'assistant-request', '--forward-to', `${server.url}/text`]);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain('no JSON answer');
  });

  it('a 500 exits 1 with the status; a timeout and a refused connection exit 1 naming the cause', async () => {
    const fail = await h.current.voice(['trigger', 'end-of-call-report', '--forward-to', `${server.url}/fail`]);
    expect(fail.exitCode).toBe(1);
    expect(fail.stdout).toContain('500 Internal Server Error');
    expect(fail.stderr).toContain('answered 500');

    // /slow answers after 2.9 s: a `timeout` failure means the 0.5 s timeout fired first.
    const slow = await h.current.voice(['trigger', 'tool-calls', '--forward-to', `${server.url}/slow`, '--timeout', '0.5', '--json']);
    expect(slow.exitCode).toBe(1);
    expect(json(slow)).toMatchObject({ ok: false, status: null, failure: 'timeout' });
    expect(slow.stderr).toContain('No answer from');

    const closed = await devServer();
    const url = closed.url;
    await closed.close();
    const refused = await h.current.voice(['trigger', 'hang', '--forward-to', url]);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('connection refused');
  });

  it('usage errors exit 2: unknown type (closest first), no --forward-to, bad --set, bad URL', async () => {
    const before = server.got.length;
    const unknown = await h.current.voice(['trigger', 'tool-call', '--forward-to', server.url]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('Unknown message type "tool-call". Did you mean tool-calls?');
    expect(unknown.stderr).toMatch(/closest first: tool-calls, /);
    const status = await h.current.voice(['trigger', 'statusupdate', '--forward-to', server.url]);
    expect(status.stderr).toContain('Did you mean status-update?');
    const noType = await h.current.voice(['trigger']);
    expect(noType.exitCode).toBe(2);
    expect(noType.stderr).toContain('Name a message type');
    expect((await h.current.voice(['trigger', 'tool-call'])).stderr).toContain('Did you mean tool-calls?');
    // Nothing close: no suggestion, just the known types.
    const far = await h.current.voice(['trigger', 'nonsense', '--forward-to', server.url]);
    expect(far.exitCode).toBe(2);
    expect(far.stderr).toContain('Unknown message type "nonsense".');
    expect(far.stderr).not.toContain('Did you mean');
    expect(far.stderr).toMatch(/Known types: .*tool-calls/);
    const noUrl = await h.current.voice(['trigger', 'hang']);
    expect(noUrl.exitCode).toBe(2);
    expect(noUrl.stderr).toContain('--forward-to');
    const badSet = await h.current.voice(['trigger', 'hang', '--forward-to', server.url, '--set', 'nothing']);
    expect(badSet.exitCode).toBe(2);
    const badUrl = await h.current.voice(['trigger', 'hang', '--forward-to', 'ftp://x']);
    expect(badUrl.exitCode).toBe(2);
    // Nothing reached the server.
    expect(server.got.length).toBe(before);
  });

  it('-f sends a message file with --set over it; --header reaches the server; secrets in answers are masked', async () => {
    const file = join(dir, 'message.json');
    writeFileSync(file, JSON.stringify({ message: { type: 'transcript', role: 'user', transcriptType: 'final', transcript: 'from the file', timestamp: 1 } }));
    const r = await h.current.voice(['trigger', '-f', file, '--set', 'transcript=changed', '--forward-to', `${server.url}/leaky`, '--header', `x-vapi-secret: ${KEY}`]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(messageOf(last())).toEqual({ type: 'transcript', role: 'user', transcriptType: 'final', transcript: 'changed', timestamp: 1 });
    expect(last().headers['x-vapi-secret']).toBe(KEY);
    expect(r.stdout).toContain('"token":"****"');
    // A header value given on the command line is a secret: echoed back, it is still masked.
    expect(r.stdout).toContain('"echo":"****cdef"');
    const clash = await h.current.voice(['trigger', 'hang', '-f', file, '--forward-to', server.url]);
    expect(clash.exitCode).toBe(2);
    expect(clash.stderr).toContain('holds a "transcript" message');
  });

  it('--call fills the call, assistant and customer from an emulated call; --dry-run prints the message', async () => {
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const assistant = (await (await fetch(`${h.current.emu.url}/assistant`, { method: 'POST', headers, body: JSON.stringify({ name: 'Front desk' }) })).json()) as { id: string };
    const call = (await (await fetch(`${h.current.emu.url}/call`, { method: 'POST', headers, body: JSON.stringify({ assistantId: assistant.id, customer: { number: '+15555550177' } }) })).json()) as {
      id: string;
    };
    const r = await h.current.voice(['trigger', 'status-update', '--call', call.id, '--forward-to', `${server.url}/call`]);
    expect(r.exitCode, r.stderr).toBe(0);
    const m = messageOf(last());
    expect(m).toMatchObject({ call: { id: call.id }, assistant: { name: 'Front desk' }, customer: { number: '+15555550177' } });

    const dry = await h.current.voice(['trigger', 'speech-update', '--dry-run', '--set', 'role=user']);
    expect(dry.exitCode).toBe(0);
    expect(json<{ message: { type: string; role: string } }>(dry).message).toMatchObject({ type: 'speech-update', role: 'user' });

    const missing = await h.current.voice(['trigger', 'hang', '--call', 'no-such-call', '--forward-to', server.url]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('404');
  });
});
