// docs/model.md's code blocks, run: the Ollama lines against a fake OpenAI-compatible server at the
// URL they name (Ollama itself is not installed here), the custom-LLM server as written, and the
// cassette lines (record on "your machine", then `voice dev exec --llm-replay` with no model).
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from 'voice-agent-core/emulator';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import { ROOT, ensureBuilt } from './build.js';
import { firstLine } from './harness.js';

const BIN = join(ROOT, 'bin', 'voice.js');
const OLLAMA = 'http://127.0.0.1:11434/v1';
const home = mkdtempSync(join(tmpdir(), 'voice-docs-model-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
const auth = { authorization: 'Bearer any-key', 'content-type': 'application/json' };
const doc = readFileSync(join(ROOT, 'docs', 'model.md'), 'utf8');
const blocks = [...doc.matchAll(/```(\w+)[^\n]*\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1] as string, code: m[2] as string }));
let fake: FakeModel;

beforeAll(async () => {
  ensureBuilt();
  fake = await startFakeModel((req) => {
    const last = (req.body.messages as { role: string; content: string }[]).at(-1);
    return { text: last?.role === 'user' ? `Llama says: ${last.content}` : 'Llama greets you.' };
  });
});
afterAll(async () => {
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

/** The words of a shell line (double-quoted strings kept whole). */
function words(line: string): string[] {
  return [...line.replace(/\s+#.*$/, '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? (m[2] as string));
}

/** Runs `voice dev ...` words in the background (URL swapped for the fake model, on a free port); resolves with its URL. */
async function background(args: string[], extra: string[]): Promise<{ url: string; dev: ResultPromise; stderr: () => string }> {
  const dev = execa(process.execPath, [BIN, ...args.map((a) => (a === OLLAMA ? fake.url : a)), '--port', '0', '--quiet', '--no-inspector', ...extra], {
    env,
    extendEnv: false,
    reject: false,
    cwd: home,
  });
  let err = '';
  dev.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const url = await firstLine(dev);
  return { url, dev, stderr: () => err };
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

const ASSISTANT = { firstMessage: 'Parcel desk.', model: { provider: 'openai', model: 'gpt-4o-mini' } };

describe('docs/model.md', () => {
  it('has the three blocks it promises', () => {
    expect(blocks.map((b) => b.lang)).toEqual(['sh', 'js', 'sh']);
    expect(blocks[1]?.code.trim().split('\n').length).toBeLessThanOrEqual(20);
  });

  it('Ollama in three lines: voice dev on the endpoint, then voice call say on a live call', async () => {
    const lines = (blocks[0]?.code ?? '').trim().split('\n');
    expect(lines[0]).toBe('ollama pull llama3.2');
    const scenario = join(home, 'wait.yaml');
    writeFileSync(scenario, 'turns:\n  - pauseSeconds: 600\n  - hangup: true\n');
    const { url, dev, stderr } = await background(words(lines[1] as string).slice(1), ['--scenario', scenario]);
    try {
      await waitFor(async () => stderr().includes('Model:'));
      expect(stderr()).toContain(`Model:   ${fake.url} (model llama3.2)`);
      const { id } = (await (await fetch(`${url}/call`, { method: 'POST', headers: auth, body: JSON.stringify({ customer: { number: '+14155550100' }, assistant: ASSISTANT }) })).json()) as {
        id: string;
      };
      await waitFor(async () => ((await (await fetch(`${url}/call/${id}`, { headers: auth })).json()) as { status: string }).status === 'in-progress');
      const say = words(lines[2] as string)
        .filter((w) => w !== '--local')
        .map((w) => (w === '<call-id>' ? id : w));
      const said = await execa(process.execPath, [BIN, ...say.slice(1)], { env: { ...env, VOICE_API_URL: url, VOICE_API_KEY: 'any-key' }, extendEnv: false, reject: false, cwd: home });
      expect(said.exitCode, String(said.stderr)).toBe(0);
      await waitFor(async () => fake.requests.some((r) => JSON.stringify(r.body.messages).includes('Hi, where is my parcel?')));
      expect(fake.requests.at(-1)?.body.model).toBe('llama3.2');
    } finally {
      dev.kill('SIGINT');
      await dev;
    }
  }, 60_000);

  it("the custom LLM server answers a custom-llm assistant's chat", async () => {
    const file = join(home, 'custom-llm.mjs');
    writeFileSync(file, blocks[1]?.code ?? '');
    const server = execa(process.execPath, [file], { env: { ...env, PORT: '0' }, extendEnv: false, reject: false });
    const emu = await startEmulator();
    try {
      const llm = await new Promise<string>((ok) => server.stdout?.on('data', (c: Buffer) => ok((/on (http:\S+)/.exec(c.toString()) as RegExpExecArray)[1] as string)));
      const res = await fetch(`${emu.url}/chat`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ assistant: { model: { provider: 'custom-llm', model: 'mine', url: llm } }, input: 'Hello there' }),
      });
      const chat = (await res.json()) as { output: { content: string }[] };
      expect(chat.output.at(-1)?.content.trim()).toBe('You said: Hello there');
    } finally {
      server.kill();
      await server;
      await emu.close();
    }
  });

  it('a cassette in CI: record with the model, then voice dev exec --llm-replay passes with no model', async () => {
    const [record, replay] = (blocks[2]?.code ?? '').trim().split('\n');
    const { url, dev } = await background(words(record as string).slice(1), ['--speed', '200']);
    const check = `const h = { authorization: 'Bearer ' + process.env.VOICE_API_KEY, 'content-type': 'application/json' };
      const base = process.env.VOICE_API_URL ?? ${JSON.stringify('')};
      const c = await (await fetch(base + '/call', { method: 'POST', headers: h, body: JSON.stringify({ customer: { number: '+14155550100' }, assistant: ${JSON.stringify(ASSISTANT)} }) })).json();
      let call; do { await new Promise((r) => setTimeout(r, 50)); call = await (await fetch(base + '/call/' + c.id, { headers: h })).json(); } while (call.status !== 'ended');
      console.log(call.artifact.transcript); if (call.endedReason !== 'customer-ended-call') { const ac = new AbortController(); setTimeout(() => ac.abort(), 500); const r = await fetch(base + '/__voice/events?since=0&callId=' + c.id, { headers: h, signal: ac.signal }); try { for await (const x of r.body) console.error(new TextDecoder().decode(x).split(String.fromCharCode(10)).filter((l) => l.includes('Model failed')).join('')); } catch {} }
      process.exit(call.endedReason === 'customer-ended-call' && call.artifact.transcript.includes('Llama says:') ? 0 : 1);`;
    writeFileSync(join(home, 'check.mjs'), check);
    try {
      const made = await execa(process.execPath, [join(home, 'check.mjs')], { env: { ...env, VOICE_API_URL: url, VOICE_API_KEY: 'any-key' }, extendEnv: false, reject: false });
      expect(made.exitCode, String(made.stdout) + String(made.stderr)).toBe(0);
    } finally {
      dev.kill('SIGINT');
      await dev;
    }
    expect(existsSync(join(home, 'model.cassette.json'))).toBe(true);
    await fake.close();
    const args = words(replay as string);
    const dashdash = args.indexOf('--');
    expect(args.slice(dashdash + 1)).toEqual(['npm', 'test']);
    const replayed = await execa(process.execPath, [BIN, ...args.slice(1, dashdash), '--speed', '200', '--', process.execPath, join(home, 'check.mjs')], {
      env,
      extendEnv: false,
      reject: false,
      cwd: home,
      timeout: 60_000,
    });
    expect(replayed.exitCode, `${String(replayed.stdout)}\n${String(replayed.stderr)}`).toBe(0);
    expect(String(replayed.stdout)).toContain('Llama says:');
  }, 90_000);
});
