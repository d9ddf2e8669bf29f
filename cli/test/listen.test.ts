// `voice listen` as a real process: receives server messages, forwards them to a loopback server
// standing in for the developer's, relays its answer, filters, prints plain or JSON lines, and
// stops cleanly on Ctrl-C.
import { join } from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleServerMessage } from '#core/messages/index';
import { ROOT } from './build.js';
import { devServer, messageOf } from './dev-server.js';
import type { DevServer } from './dev-server.js';
import { KEY, captured, fileHarness } from './harness.js';

const h = fileHarness({ speed: 20 });
let server: DevServer;

beforeAll(async () => {
  server = await devServer((g) => {
    const m = messageOf(g);
    if (g.path.startsWith('/fail')) return { status: 500, body: { error: 'boom' } };
    if (g.path.startsWith('/empty') && m.type === 'tool-calls') return { body: {} };
    if (g.path.startsWith('/documented') && m.type === 'tool-calls') return { body: { results: (m.toolCallList as { id: string }[]).map((c) => ({ toolCallId: c.id, result: 'Booked.' })) } };
    if (m.type === 'tool-calls')
      return { body: { results: (m.toolCallList as { id: string; function: { name: string } }[]).map((c) => ({ name: c.function.name, toolCallId: c.id, result: 'Booked for Monday.' })) } };
    return { body: { received: m.type } };
  });
});
afterAll(() => server.close());

interface Listening {
  url: string;
  child: ResultPromise;
  stdout(): string;
  stderr(): string;
  /** Sends SIGINT and resolves with the exit code. */
  stop(): Promise<number>;
}

async function listen(args: string[]): Promise<Listening> {
  const child = execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), 'listen', '--port', '0', ...args], {
    env: h.current.env,
    extendEnv: false,
    reject: false,
    cwd: h.current.home,
    timeout: 60_000,
  });
  let out = '';
  let errText = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (d: Buffer) => {
      errText += d.toString();
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(errText);
      if (m) resolve(m[1] as string);
    });
    void child.then(() => reject(new Error(`voice listen exited early: ${errText}`)));
  });
  return {
    url,
    child,
    stdout: () => out,
    stderr: () => errText,
    stop: async () => {
      child.kill('SIGINT');
      const r = await child;
      captured.push(out, errText);
      return r.exitCode ?? -1;
    },
  };
}

const post = async (url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // kept as text
  }
  return { status: res.status, body: parsed };
};

const until = async (check: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('voice listen', () => {
  it('forwards each message with its headers, relays the answer to the sender, prints plain lines when piped, exits 0 on Ctrl-C', async () => {
    const l = await listen(['--forward-to', `${server.url}/hook?app=1`]);
    const message = sampleServerMessage('tool-calls');
    const answer = await post(`${l.url}/anything`, { message }, { 'x-vapi-secret': KEY });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ results: [{ name: 'bookAppointment', toolCallId: 'call_sample_1', result: 'Booked for Monday.' }] });
    const got = server.got.at(-1);
    expect(got?.path).toBe('/hook?app=1');
    expect(got?.headers['x-vapi-secret']).toBe(KEY);
    expect(got?.raw).toBe(JSON.stringify({ message }));

    const failed = await post(l.url, { message: sampleServerMessage('status-update') });
    expect(failed.status).toBe(200);

    await until(() => l.stdout().split('\n').length > 2);
    // Lines come in the order answers are complete, which need not be the order of sending.
    const lines = l.stdout().trim().split('\n');
    const cols = (lines.find((x) => x.includes('\ttool-calls\t')) as string).split('\t');
    expect(cols[0]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(cols.slice(1, 4)).toEqual(['tool-calls', String((message.call as { id: string }).id), 'bookAppointment({"day":"monday"})']);
    expect(cols[4]).toMatch(/^-> 200 \d+ ms$/);
    expect(lines.find((x) => x.includes('\tstatus-update\t'))).toContain('\tin-progress\t');
    expect(l.stdout()).not.toContain('\x1b[');
    expect(await l.stop()).toBe(0);
    expect(l.stderr()).toContain('Stopped after 2 messages.');
  });

  it('relays failures: a 500 goes back as 500, an unreachable server as 502; a wrong answer is flagged', async () => {
    const l = await listen(['--forward-to', `${server.url}/fail`]);
    const r = await post(l.url, { message: sampleServerMessage('end-of-call-report') });
    expect(r).toEqual({ status: 500, body: { error: 'boom' } });
    await until(() => l.stdout().includes('-> 500'));
    expect(await l.stop()).toBe(0);

    const closed = await devServer();
    await closed.close();
    const down = await listen(['--forward-to', closed.url, '--timeout', '2']);
    const r2 = await post(down.url, { message: sampleServerMessage('hang') });
    expect(r2.status).toBe(502);
    expect(JSON.stringify(r2.body)).toContain('connection refused');
    await until(() => down.stdout().includes('failed'));
    expect(await down.stop()).toBe(0);

    const wrong = await listen(['--forward-to', `${server.url}/empty`]);
    expect((await post(wrong.url, { message: sampleServerMessage('tool-calls') })).body).toEqual({});
    await until(() => wrong.stdout().includes('bad answer'));
    expect(wrong.stdout()).toContain('\tbad answer\t');
    expect(wrong.stdout()).toContain('results: missing');
    expect(await wrong.stop()).toBe(0);

    // The answer the platform's guides show (no `name`) is accepted, with a note, never a bad answer.
    const documented = await listen(['--forward-to', `${server.url}/documented`]);
    await post(documented.url, { message: sampleServerMessage('tool-calls') });
    await until(() => documented.stdout().includes('\tnote\t'));
    expect(documented.stdout()).toContain('results.0.name is not given');
    expect(documented.stdout()).not.toContain('bad answer');
    expect(await documented.stop()).toBe(0);
  });

  it('--events filters what is shown and forwarded; --json prints JSON lines with secrets masked', async () => {
    const before = server.got.length;
    const l = await listen(['--forward-to', server.url, '--events', 'status-update,end-of-call-report', '--json']);
    const secretAssistant = { ...(sampleServerMessage('status-update').assistant as object), server: { url: 'https://example.com', headers: { authorization: `Bearer ${KEY}` } } };
    expect((await post(l.url, { message: { ...sampleServerMessage('status-update'), assistant: secretAssistant } })).body).toEqual({ received: 'status-update' });
    expect((await post(l.url, { message: sampleServerMessage('transcript') })).status).toBe(200);
    expect((await post(l.url, { message: sampleServerMessage('end-of-call-report') })).body).toEqual({ received: 'end-of-call-report' });
    await until(() => l.stdout().trim().split('\n').length >= 2);
    expect(await l.stop()).toBe(0);
    expect(server.got.slice(before).map((g) => messageOf(g).type)).toEqual(['status-update', 'end-of-call-report']);
    const rows = l
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.map((r) => r.type)).toEqual(['status-update', 'end-of-call-report']);
    expect(rows[0]).toMatchObject({
      detail: 'in-progress',
      answer: { status: 200, noop: false, body: { received: 'status-update' } },
      message: { type: 'status-update', assistant: { server: { headers: { authorization: '****' } } } },
    });
    expect(typeof (rows[0]?.answer as { ms: number }).ms).toBe('number');
    expect(l.stdout()).not.toContain(KEY);
    expect(l.stderr()).toContain('Stopped after 3 messages.');
  });

  it('without --forward-to answers each message with a no-op the platform accepts, and refuses what is not a server message', async () => {
    const l = await listen([]);
    expect((await post(l.url, { message: sampleServerMessage('tool-calls') })).body).toEqual({ results: [{ name: 'bookAppointment', toolCallId: 'call_sample_1', result: '' }] });
    expect(((await post(l.url, { message: sampleServerMessage('assistant-request') })).body as { error: string }).error).toContain('no --forward-to');
    expect((await post(l.url, { message: sampleServerMessage('speech-update') })).body).toEqual({});
    expect((await post(l.url, 'not json')).status).toBe(400);
    expect((await post(l.url, { hello: 1 })).status).toBe(400);
    await until(() => l.stdout().trim().split('\n').length >= 5);
    expect(l.stdout()).toContain('answered: no-op');
    expect(l.stdout()).toContain('\trefused\t');
    expect(await l.stop()).toBe(0);
  });

  it("sits between the emulator and the developer's server: a call's tool call is answered end to end through it", async () => {
    const l = await listen(['--forward-to', `${server.url}/app`]);
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const make = async (path: string, body: unknown): Promise<{ id: string }> =>
      (await (await fetch(`${h.current.emu.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as { id: string };
    const assistant = await make('/assistant', {
      name: 'Booker',
      firstMessage: 'Hello, Booker here.',
      model: {
        provider: 'openai',
        model: 'gpt-4o-mini',
        tools: [{ type: 'function', function: { name: 'bookAppointment', parameters: { type: 'object', properties: { day: { type: 'string', enum: ['monday'] } } } } }],
      },
      server: { url: l.url },
    });
    const call = await make('/call', { assistantId: assistant.id, customer: { number: '+14155550100' } });
    await h.current.emu.calls.idle();
    const ended = (await (await fetch(`${h.current.emu.url}/call/${call.id}`, { headers })).json()) as { messages: { role: string; result?: string }[] };
    expect(ended.messages.find((m) => m.role === 'tool_call_result')?.result).toBe('Booked for Monday.');
    await until(() => l.stdout().includes('\tend-of-call-report\t'));
    expect(await l.stop()).toBe(0);
    const types = l
      .stdout()
      .trim()
      .split('\n')
      .map((x) => x.split('\t')[1]);
    expect(types).toContain('status-update');
    expect(types).toContain('tool-calls');
    expect(l.stdout()).toMatch(new RegExp(`\ttool-calls\t${call.id}\tbookAppointment\\(\\{"day":"monday"\\}\\)\t-> 200 `));
  }, 60_000);

  it('a busy port exits 1 naming --port; an unknown --events type exits 2 naming the closest', async () => {
    const l = await listen([]);
    const port = l.url.split(':').pop() as string;
    const busy = await h.current.voice(['listen', '--port', port]);
    expect(busy.exitCode).toBe(1);
    expect(busy.stderr).toContain('--port');
    expect(await l.stop()).toBe(0);
    const bad = await h.current.voice(['listen', '--events', 'tool-call']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Did you mean tool-calls?');
    const far = await h.current.voice(['listen', '--events', 'foo']);
    expect(far.exitCode).toBe(2);
    expect(far.stderr).not.toContain('Did you mean');
    expect(far.stderr).toMatch(/Unknown type in --events "foo"\.\nKnown types: /);
  });
});
