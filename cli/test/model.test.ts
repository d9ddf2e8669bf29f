// `voice dev --llm URL` through the real bin/voice.js: the banner names the model endpoint, a
// call's assistant answers with the fake model's words, and `voice call say` speaks as the customer
// on the live call; bad --llm options get clear usage errors.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '#core/emulator/calls/testing';
import { startFakeModel } from '#core/model/testing';
import { ROOT, ensureBuilt } from './build.js';
import { firstLine } from './harness.js';

const BIN = join(ROOT, 'bin', 'voice.js');
const home = mkdtempSync(join(tmpdir(), 'voice-dev-model-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
const auth = { authorization: 'Bearer any-key', 'content-type': 'application/json' };
type Obj = Record<string, unknown>;

beforeAll(() => ensureBuilt());
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Resolves once the emulator's live stream of call `id` has had a final transcript line containing `text`. */
async function heard(url: string, id: string, text: string): Promise<void> {
  const res = await fetch(`${url}/__voice/events?callId=${id}&since=0`, { headers: { ...auth, accept: 'text/event-stream' } });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended before "${text}" was said`);
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n').filter((l) => l.startsWith('data: '));
    if (lines.some((l) => l.includes('"call.transcript"') && !l.includes('"partial":true') && l.includes(text))) return void (await reader.cancel());
    const ended = lines.find((l) => l.includes('"status":"ended"'));
    if (ended) throw new Error(`the call ended before "${text}" was said: ${ended}`);
  }
}

const voice = (args: string[], extra: Record<string, string> = {}) =>
  execa(process.execPath, [BIN, ...args], { env: { ...env, ...extra }, extendEnv: false, reject: false, cwd: home, timeout: 30_000 });

describe('voice dev --llm', () => {
  it('runs the assistant on the model, names it in the banner, and takes `voice call say` lines', async () => {
    const fake = await startFakeModel((req) => {
      const last = (req.body.messages as Obj[]).at(-1);
      return { text: last?.role === 'user' ? `Model heard: ${String(last.content)}` : 'Hello from the model.' };
    });
    const scenario = join(home, 'wait.yaml');
    writeFileSync(scenario, 'turns:\n  - pauseSeconds: 600\n  - hangup: true\n');
    const dev = execa(process.execPath, [BIN, 'dev', '--port', '0', '--quiet', '--no-inspector', '--scenario', scenario, '--llm', fake.url, '--llm-model', 'tiny-llm'], {
      env,
      extendEnv: false,
      reject: false,
      cwd: home,
    });
    let stderr = '';
    dev.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      const url = await firstLine(dev);
      await until(() => (stderr.includes('Model:') ? true : undefined));
      expect(stderr).toContain(`Model:   ${fake.url} (model tiny-llm)`);

      const body = {
        customer: { number: '+14155550100' },
        assistant: { firstMessageMode: 'assistant-speaks-first-with-model-generated-message', model: { provider: 'openai', model: 'gpt-4o-mini' } },
      };
      const { id } = (await (await fetch(`${url}/call`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()) as { id: string };
      await heard(url, id, 'Hello from the model.');

      const said = await voice(['call', 'say', id, 'Is my order ready?'], { VOICE_API_URL: url, VOICE_API_KEY: 'any-key' });
      expect(said.exitCode, String(said.stderr)).toBe(0);
      expect(String(said.stderr)).toContain(`voice call watch ${id}`);
      await heard(url, id, 'Model heard: Is my order ready?');
      expect(fake.requests.every((r) => r.body.model === 'tiny-llm')).toBe(true);

      // An ended call takes no line, and the reason is said once.
      expect((await fetch(`${url}/__voice/calls/${id}/end`, { method: 'POST', headers: auth })).status).toBeLessThan(300);
      const over = await voice(['call', 'say', id, 'Still there?'], { VOICE_API_URL: url, VOICE_API_KEY: 'any-key' });
      expect(over.exitCode).toBe(1);
      expect(String(over.stderr)).toContain(`Call ${id}: The call is not running`);
      expect(String(over.stderr).match(/not running/g)).toHaveLength(1);

      const gone = await voice(['call', 'say', 'no-such-call', 'hi'], { VOICE_API_URL: url, VOICE_API_KEY: 'any-key' });
      expect(gone.exitCode).toBe(1);
      expect(String(gone.stderr)).toContain('No call no-such-call');
    } finally {
      dev.kill('SIGINT');
      await dev;
      await fake.close();
    }
  }, 60_000);

  it('says, when a replay misses on the model name, to pass --llm-model with the recorded one, and that replays', async () => {
    const fake = await startFakeModel(() => ({ text: 'Recorded answer.' }));
    const cassette = join(home, 'named.cassette.json');
    /** Runs `voice dev` with these model flags and one call on it; returns the call and its log lines. */
    const oneCall = async (flags: string[]): Promise<{ call: Obj; logs: string[] }> => {
      const dev = execa(process.execPath, [BIN, 'dev', '--port', '0', '--quiet', '--no-inspector', '--speed', '50', ...flags], { env, extendEnv: false, reject: false, cwd: home });
      try {
        const url = await firstLine(dev);
        const body = { customer: { number: '+14155550100' }, assistant: { firstMessage: 'Hello.', model: { provider: 'openai', model: 'gpt-4o-mini' } } };
        const { id } = (await (await fetch(`${url}/call`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).json()) as { id: string };
        const call = await until(async () => {
          const now = (await (await fetch(`${url}/call/${id}`, { headers: auth })).json()) as Obj;
          return now.status === 'ended' ? now : undefined;
        }, 30_000);
        const logs = ((await (await fetch(`${url}/log?callId=${id}`, { headers: auth })).json()) as { results: { log: string }[] }).results.map((l) => l.log);
        return { call, logs };
      } finally {
        dev.kill('SIGINT');
        await dev;
      }
    };
    try {
      const recorded = await oneCall(['--llm', fake.url, '--llm-model', 'model-a', '--llm-record', cassette]);
      expect(recorded.call.endedReason).toBe('customer-ended-call');
      // Replayed with the assistant's own model name: the hint names the flag and the recorded name.
      const missed = await oneCall(['--llm-replay', cassette]);
      expect(missed.logs.join('\n')).toContain('replay with --llm-model model-a (the name it was recorded with)');
      const replayed = await oneCall(['--llm-replay', cassette, '--llm-model', 'model-a']);
      expect(replayed.call.endedReason).toBe('customer-ended-call');
      expect(replayed.logs.join('\n')).not.toContain('no recorded answer');
    } finally {
      await fake.close();
    }
  }, 120_000);

  it('refuses bad --llm options with usage errors (exit 2)', async () => {
    const url = await voice(['dev', '--port', '0', '--llm', 'not a url']);
    expect(url.exitCode).toBe(2);
    expect(String(url.stderr)).toContain('expected the base URL of an OpenAI-compatible server');
    const both = await voice(['dev', '--port', '0', '--llm-record', 'a.json', '--llm-replay', 'b.json']);
    expect(both.exitCode).toBe(2);
    expect(String(both.stderr)).toContain('--llm-record and --llm-replay');
    const missing = await voice(['dev', '--port', '0', '--llm-replay', join(home, 'none.json')]);
    expect(missing.exitCode).toBe(2);
    expect(String(missing.stderr)).toContain('no such file');
    const mixed = await voice(['dev', '--port', '0', '--llm', 'http://127.0.0.1:9/v1', '--llm-model', 'a', '--llm-model', 'openai/x=b']);
    expect(mixed.exitCode).toBe(2);
    expect(String(mixed.stderr)).not.toMatch(/at .*\.js:\d+/);
    const notes = join(home, 'notes.txt');
    writeFileSync(notes, 'not a cassette\n');
    const notCassette = await voice(['dev', '--port', '0', '--llm-replay', notes]);
    expect(notCassette.exitCode).toBe(2);
    expect(String(notCassette.stderr)).toContain(`--llm-replay ${notes} is not JSON, so not a model cassette`);
    const modelOnly = await voice(['dev', '--port', '0', '--llm-model', 'llama3.2']);
    expect(modelOnly.exitCode).toBe(2);
    expect(String(modelOnly.stderr)).toContain('--llm-model names a model of the endpoint --llm gives');
    expect(String(modelOnly.stderr + notCassette.stderr)).not.toMatch(/at .*\.js:\d+/);
  });
});
