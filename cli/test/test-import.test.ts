// `voice test import` through the built CLI, on the local platform with a fake model: a call where
// the model books the wrong day through a tool becomes an eval; it passes on the same model, fails
// on the fixed one naming the turn and the argument, and with --expect the other way round. The
// same test comes from the saved call, the end-of-call report and a hosted call id (a loopback
// stand-in for the hosted API, asked with the profile's key). docs/testing-agents.md's import
// commands run here.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { EmulatorOptions } from 'voice-agent-core/emulator';
import { until } from '#core/emulator/calls/testing';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel, FakeReply, FakeRequest } from '#core/model/testing';
import { roleOf, systemOf } from '#core/evals/roles.test-support';
import { devServer, messageOf } from './dev-server.js';
import type { DevServer } from './dev-server.js';
import { ROOT } from './build.js';
import { fileHarness, json } from './harness.js';

type Msg = { role: string; content?: string | null; tool_calls?: { function: { arguments: string } }[] };
const ASK = 'Can you book me a check-up on Tuesday?';
/** The day the assistant's model books: the recorded call's mistake, or the fix. */
let day = 'Thursday';
/** Milliseconds the assistant's model waits before its first byte. */
let slow = 0;

function target(req: FakeRequest): FakeReply {
  const messages = req.body.messages as Msg[];
  const last = messages.at(-1);
  if (last?.role === 'user' && last.content === ASK) return { toolCalls: [{ name: 'book_appointment', arguments: { day } }], delayMs: slow };
  if (last?.role === 'tool') return { text: `You're booked: ${String(last.content)}.` };
  return { text: 'Goodbye!' };
}

/** A judge that reads its prompt: "what should happen" wants Tuesday booked; otherwise the reply must equal the recorded one. */
function judge(req: FakeRequest): FakeReply {
  const prompt = systemOf(req);
  const conversation = JSON.parse(prompt.slice(prompt.indexOf('Conversation:\n') + 'Conversation:\n'.length)) as Msg[];
  const reply = conversation.at(-1) as Msg;
  const args = (reply.tool_calls ?? []).map((c) => c.function.arguments).join(' ');
  if (prompt.includes('What should happen instead:')) return { text: args.includes('Tuesday') ? 'pass' : 'fail' };
  const recorded = /it said "([^"]*)"/.exec(prompt)?.[1];
  return { text: recorded !== undefined && recorded === reply.content ? 'pass' : 'fail' };
}

const options: EmulatorOptions = { speed: 50, scenario: { turns: [{ say: ASK }, { say: 'Thanks, bye!', hangup: true }] } };
let model: FakeModel;
let tools: DevServer;
beforeAll(async () => {
  model = await startFakeModel((req) => (roleOf(req) === 'judge' ? judge(req) : target(req)));
  tools = await devServer((g) => {
    const m = messageOf(g);
    if (m.type !== 'tool-calls') return { body: {} };
    const call = (m.toolCallList as { id: string; function: { arguments: string } }[])[0];
    const args = JSON.parse(call?.function.arguments ?? '{}') as { day?: string };
    return { body: { results: [{ toolCallId: call?.id, result: `${args.day ?? '?'} 10:00` }] } };
  });
  options.model = { url: model.url };
});
const hf = fileHarness(options);
afterAll(async () => {
  await model?.close();
  await tools?.close();
});

function folder(): string {
  const dir = join(hf.current.home, 'resources');
  mkdirSync(join(dir, 'assistants'), { recursive: true });
  mkdirSync(join(dir, 'tools'), { recursive: true });
  writeFileSync(
    join(dir, 'assistants/receptionist.yml'),
    `name: Receptionist\nfirstMessage: Riverside Clinic, how can I help?\nmodel:\n  provider: openai\n  model: gpt-4o\n  toolIds:\n    - book-appointment\nserver:\n  url: ${tools.url}/events\n`,
  );
  writeFileSync(
    join(dir, 'tools/book-appointment.yml'),
    `type: function\nfunction:\n  name: book_appointment\n  parameters:\n    type: object\n    properties:\n      day:\n        type: string\nserver:\n  url: ${tools.url}/tools\n`,
  );
  return dir;
}

async function placeCall(dir: string): Promise<string> {
  const state = JSON.parse(readFileSync(join(dir, `.voice-state.default.127.0.0.1-${new URL(hf.current.emu.url).port}.json`), 'utf8')) as { assistants: { receptionist: { uuid: string } } };
  const call = (await hf.current.emu.client.call.create({ assistantId: state.assistants.receptionist.uuid, customer: { number: '+14155550100' } } as never)) as unknown as { id: string };
  await until(async () => (((await hf.current.emu.client.call.get(call.id)) as unknown as { status: string }).status === 'ended' ? true : undefined), 30_000);
  return call.id;
}

const evalOf = (path: string): { messages: unknown[]; 'x-voice': { source: Record<string, string>; target?: string; turns?: unknown[] } } => parse(readFileSync(path, 'utf8'));
const replayed = (path: string): unknown => {
  const e = evalOf(path);
  return { messages: e.messages, target: e['x-voice'].target, turns: e['x-voice'].turns, callId: e['x-voice'].source.callId };
};

describe('voice test import', () => {
  let dir: string;
  let callId: string;

  it('imports a voice dev call where the model booked the wrong day; the eval passes on that model and fails on the fixed one, naming the turn and the argument', async () => {
    dir = folder();
    const applied = await hf.current.voice(['apply', '--dir', dir, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    callId = await placeCall(dir);
    const imported = await hf.current.voice(['test', 'import', callId, dir, '--local', '--api-url', hf.current.emu.url, '--as', 'wrong-day']);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(`Wrote ${join(dir, 'evals/wrong-day.yml')}: call ${callId}`);
    expect(imported.stdout).toMatch(/turn 1 {2}replayed \(the fixed first message\)/);
    expect(imported.stdout).toContain('turn 2  tool calls judged by name and arguments: book_appointment({"day":"Thursday"})');
    expect(imported.stdout).toMatch(/turn 3 {2}judged by the AI judge: "You're booked: Thursday 10:00\."/);
    const file = readFileSync(join(dir, 'evals/wrong-day.yml'), 'utf8');
    expect(file).toContain(`# Imported by \`voice test import ${callId}\``);
    expect(file).toContain('# turn 2: recorded, the assistant called book_appointment({"day":"Thursday"})');
    const data = evalOf(join(dir, 'evals/wrong-day.yml'));
    expect(data['x-voice']).toMatchObject({ target: 'receptionist', source: { callId, from: `voice dev at ${hf.current.emu.url}` } });
    expect(data['x-voice'].turns?.length).toBeGreaterThan(0);
    expect(data.messages).toContainEqual({ role: 'tool', content: 'Thursday 10:00' });
    expect((await hf.current.voice(['test', dir, '--lint'])).exitCode).toBe(0);

    day = 'Thursday';
    const same = await hf.current.voice(['test', dir, '--llm', model.url, '--json'], { timeout: 60_000 });
    expect(same.exitCode, same.stdout + same.stderr).toBe(0);
    const toolRequests = tools.got.filter((g) => messageOf(g).type === 'tool-calls').length;

    day = 'Tuesday';
    const fixed = await hf.current.voice(['test', dir, '--llm', model.url, '--json'], { timeout: 60_000 });
    expect(fixed.exitCode).toBe(1);
    const report = json<{ evals: { reason: string; source: { callId: string } }[] }>(fixed);
    expect(report.evals[0]?.reason).toContain('Turn 2 (message 3, regex judge) failed: tool call book_appointment: argument day is "Tuesday", expected "Thursday"');
    expect(report.evals[0]?.source.callId).toBe(callId);
    // The recorded tool result is mocked: the tool's server is not called by the eval.
    expect(tools.got.filter((g) => messageOf(g).type === 'tool-calls').length).toBe(toolRequests);
  }, 120_000);

  it('with --expect on the turn, the fixed model passes and the old one fails', async () => {
    const imported = await hf.current.voice(['test', 'import', callId, dir, '--as', 'wrong-day', '--force', '--expect', '2: books Tuesday, the day the caller asked for']);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('turn 2  judged by the AI judge: books Tuesday, the day the caller asked for');
    day = 'Tuesday';
    const fixed = await hf.current.voice(['test', dir, '--llm', model.url], { timeout: 60_000 });
    expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
    day = 'Thursday';
    const old = await hf.current.voice(['test', dir, '--llm', model.url], { timeout: 60_000 });
    expect(old.exitCode).toBe(1);
    expect(old.stdout).toContain('Turn 2 (message 3, ai judge) failed: the AI judge answered "fail"');
  }, 120_000);

  it('gives the same test from the saved call, the end-of-call report and a hosted call id fetched with the profile key', async () => {
    const got = await hf.current.voice(['call', 'get', callId, '--json']);
    writeFileSync(join(hf.current.home, 'call.json'), got.stdout);
    const report = tools.got.find((g) => messageOf(g).type === 'end-of-call-report');
    expect(report).toBeDefined();
    writeFileSync(join(hf.current.home, 'report.json'), report?.raw ?? '');
    for (const [source, as] of [
      ['call.json', 'from-call'],
      ['report.json', 'from-report'],
    ]) {
      const run = await hf.current.voice(['test', 'import', join(hf.current.home, source as string), dir, '--as', as as string]);
      expect(run.exitCode, run.stderr).toBe(0);
    }
    const profileKey = 'sk-profile-hosted-0123';
    const hosted = await devServer((g) =>
      g.headers.authorization === `Bearer ${profileKey}` && g.path === `/call/${callId}` ? { body: JSON.parse(got.stdout) as unknown } : { status: 401, body: { message: 'Invalid key' } },
    );
    try {
      mkdirSync(join(hf.current.configDir, 'voice'), { recursive: true });
      writeFileSync(join(hf.current.configDir, 'voice/config.json'), JSON.stringify({ profiles: { hosted: { apiKey: profileKey, baseUrl: hosted.url } } }));
      const run = await hf.current.voice(['test', 'import', callId, dir, '--as', 'from-hosted', '--profile', 'hosted'], { env: { VOICE_API_KEY: undefined, VOICE_API_URL: undefined } });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(hosted.got.map((g) => g.headers.authorization)).toEqual([`Bearer ${profileKey}`]);
      expect(evalOf(join(dir, 'evals/from-hosted.yml'))['x-voice'].source.from).toBe(`the platform at ${hosted.url}`);
    } finally {
      await hosted.close();
    }
    // The guide's import commands, as written (they read call.json beside the resources folder).
    const guide = readFileSync(join(ROOT, 'docs/testing-agents.md'), 'utf8');
    const lines = (/```sh tested-in=cli\/test\/test-import\.test\.ts\n([\s\S]*?)```/.exec(guide)?.[1] ?? '').trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      const words = (line.match(/"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^"|"$/g, ''));
      const run = await hf.current.voice(words.slice(1));
      expect(run.exitCode, `${line}\n${run.stderr}`).toBe(0);
    }
    expect(readFileSync(join(dir, 'evals/booked-wrong-day-fixed.yml'), 'utf8')).toContain('What should happen instead: books Tuesday');
    await hf.current.voice(['test', 'import', callId, dir, '--as', 'from-id']);
    const reference = replayed(join(dir, 'evals/from-id.yml'));
    for (const as of ['from-call', 'from-report', 'from-hosted']) expect(replayed(join(dir, `evals/${as}.yml`)), as).toEqual(reference);
  }, 120_000);

  it('judges a first-token budget on a live model with the turn and the figures, and not on a cassette replay, saying so', async () => {
    day = 'Thursday';
    const budgeted = await hf.current.voice(['test', 'import', callId, dir, '--as', 'budgeted', '--first-token-budget', '1000']);
    expect(budgeted.exitCode, budgeted.stderr).toBe(0);
    const only = ['--filter', 'budgeted', '--json'];
    const cassette = join(hf.current.home, 'cassette.json');
    const fast = await hf.current.voice(['test', dir, '--llm', model.url, '--llm-record', cassette, ...only], { timeout: 60_000 });
    expect(fast.exitCode, fast.stdout + fast.stderr).toBe(0);
    expect(json<{ evals: { latency: { judged: boolean; turns: { turn: number; budgetMs: number; passed: boolean }[] } }[] }>(fast).evals[0]?.latency).toMatchObject({
      judged: true,
      turns: expect.arrayContaining([{ turn: 2, firstTokenMs: expect.any(Number), replayed: false, budgetMs: 1000, passed: true }]),
    });
    slow = 2500;
    try {
      const late = await hf.current.voice(['test', dir, '--llm', model.url, ...only], { timeout: 60_000 });
      expect(late.exitCode).toBe(1);
      expect(json<{ evals: { reason: string }[] }>(late).evals[0]?.reason).toMatch(/Latency budget: turn 2: the model's first token came after \d+ ms, over its budget of 1000 ms/);
    } finally {
      slow = 0;
    }
    const replay = await hf.current.voice(['test', dir, '--llm-replay', cassette, '--filter', 'budgeted'], { timeout: 60_000 });
    expect(replay.exitCode, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout).toContain("latency budgets are not judged on a cassette replay: its timings are the recording's (--budgets on judges them anyway)");
  }, 120_000);

  it('refuses what it cannot import with a clear message (exit 2)', async () => {
    const notes = join(hf.current.home, 'notes.json');
    writeFileSync(notes, '{"hello": 1}');
    const bad = await hf.current.voice(['test', 'import', notes, dir]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('it holds no call');
    const turn = await hf.current.voice(['test', 'import', join(hf.current.home, 'call.json'), dir, '--as', 'x', '--expect', '9: anything']);
    expect(turn.exitCode).toBe(2);
    expect(turn.stderr).toContain("--expect 9: the call's judged turns are 2, 3, 4");
    const exists = await hf.current.voice(['test', 'import', join(hf.current.home, 'call.json'), dir, '--as', 'from-call']);
    expect(exists.exitCode).toBe(2);
    expect(exists.stderr).toContain('--force');
    for (const r of [bad, turn, exists]) expect(r.stderr).not.toContain('    at ');
  });
});
