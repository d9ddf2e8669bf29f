// After a call on a fake model: the org's custom-llm credential reached the model, the structured
// outputs the assistant names are in the artifact and the report (a failed one recorded), the
// interruption is counted, and the artifacts reach the org's storage (a loopback S3-compatible
// bucket, or the --storage-dir folder) with one valid `call.artifact.upload`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageProblems } from '../../messages/testing.js';
import { startFakeModel } from '../../model/testing.js';
import type { FakeModel } from '../../model/testing.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import type { Scenario } from './scenario.js';
import { startHook } from './testing.js';
import type { Hook } from './testing.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions walk deep JSON
type Loose = Record<string, any>;
const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
const SCENARIO: Scenario = { turns: [{ say: 'I want to book Tuesday at ten.' }, { say: 'Thanks, bye.', interrupt: true }] };

let emu: Emulator;
let fake: FakeModel;
let hook: Hook;
let folder: string;
const puts: { path: string; authorization: string; bytes: number }[] = [];
let bucketUrl = '';
let closeBucket: () => void = () => undefined;

async function post(path: string, body: unknown): Promise<Loose> {
  const res = await fetch(`${emu.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as Loose;
}

async function call(assistant: Loose): Promise<Loose> {
  const created = await post('/call', { assistant, customer: { number: '+14155550100' } });
  await emu.calls.idle();
  return (await (await fetch(`${emu.url}/call/${created.id}`, { headers })).json()) as Loose;
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'voice-storage-'));
  // Extraction requests (their prompt asks for JSON) get JSON; the call's turns get words.
  fake = await startFakeModel((req) => {
    const system = String((req.body.messages as Loose[])[0]?.content ?? '');
    if (system.includes('Name: slot')) return { text: '{"day":"tuesday","hour":10}' };
    if (system.includes('Name: mood')) return { text: 'cheerful, I would say' };
    return { text: 'Sure, Tuesday at ten works.' };
  });
  const bucket = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      puts.push({ path: req.url ?? '', authorization: String(req.headers.authorization), bytes });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => bucket.listen(0, '127.0.0.1', ok));
  bucketUrl = `http://127.0.0.1:${(bucket.address() as AddressInfo).port}`;
  closeBucket = () => bucket.close();
  hook = await startHook();
  emu = await startEmulator({ speed: 500, scenario: SCENARIO, model: { url: fake.url, model: 'fake-llm' }, storageDir: folder });
});
afterAll(async () => {
  await emu.close();
  await fake.close();
  await hook.close();
  closeBucket();
  rmSync(folder, { recursive: true, force: true });
});

describe('after a call', () => {
  it("the org's custom-llm credential reaches the model; structured outputs land in the artifact and the report; one interruption counts 1", async () => {
    await post('/credential', { provider: 'custom-llm', apiKey: 'org-llm-key' });
    const slot = await post('/structured-output', { name: 'slot', type: 'ai', schema: { type: 'object', properties: { day: { type: 'string' }, hour: { type: 'number' } } } });
    const mood = await post('/structured-output', { name: 'mood', type: 'ai', schema: { type: 'string' } });
    const ended = await call({
      name: 'Booker',
      model: { provider: 'custom-llm', url: `${fake.url}/chat/completions`, model: 'my-llm' },
      server: { url: hook.url },
      serverMessages: ['end-of-call-report', 'user-interrupted'],
      artifactPlan: { structuredOutputIds: [slot.id, mood.id] },
    });
    const turns = fake.requests.filter((r) => r.body.model === 'my-llm');
    expect(turns.length).toBeGreaterThan(0);
    expect(turns.every((r) => r.headers.authorization === 'Bearer org-llm-key' && r.path === '/v1/chat/completions')).toBe(true);

    expect(ended.artifact.structuredOutputs).toEqual({
      [slot.id]: { name: 'slot', result: { day: 'tuesday', hour: 10 } },
      [mood.id]: { name: 'mood', result: null, error: expect.stringContaining('did not answer JSON') },
    });
    const report = hook.received.find((r) => r.message.type === 'end-of-call-report')?.message as Loose;
    expect(report.artifact.structuredOutputs).toEqual(ended.artifact.structuredOutputs);
    expect(ended.artifact.performanceMetrics).toMatchObject({ numAssistantInterrupted: 1, numUserInterrupted: 0 });
    expect(report.artifact.performanceMetrics.numAssistantInterrupted).toBe(1);
    expect(hook.types(ended.id).filter((t) => t === 'user-interrupted')).toHaveLength(1);
    expect(await messageProblems(hook.received.map((r) => r.message))).toEqual([]);
  });

  it("writes the artifacts to the org's S3-compatible bucket (signed) and says so once in call.artifact.upload", async () => {
    const credential = await post('/credential', {
      provider: 'cloudflare',
      fallbackIndex: 1,
      bucketPlan: { name: 'calls', url: bucketUrl, accessKeyId: 'AKID', secretAccessKey: 'shh', path: 'voice' },
    });
    const before = hook.received.length;
    const ended = await call({ name: 'Stored', server: { url: hook.url }, serverMessages: ['call.artifact.upload'] });
    const uploads = hook.received.slice(before).filter((r) => r.message.type === 'call.artifact.upload');
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.message.artifacts).toEqual([
      { type: 'end-of-call-report', success: true },
      { type: 'recording-mono', success: true },
      { type: 'recording-stereo', success: true },
      { type: 'log', success: true },
    ]);
    expect(puts.map((p) => p.path)).toEqual([
      `/calls/voice/${ended.id}/end-of-call-report.json`,
      `/calls/voice/${ended.id}/mono.wav`,
      `/calls/voice/${ended.id}/stereo.wav`,
      `/calls/voice/${ended.id}/call-logs.ndjson`,
    ]);
    expect(puts.every((p) => p.authorization.startsWith('AWS4-HMAC-SHA256 Credential=AKID/') && p.bytes > 0)).toBe(true);
    expect(await messageProblems(uploads.map((r) => r.message))).toEqual([]);
    await fetch(`${emu.url}/credential/${credential.id}`, { method: 'DELETE', headers });
  });

  it('keeps an AWS bucket in the --storage-dir folder', async () => {
    await post('/credential', { provider: 's3', awsAccessKeyId: 'a', awsSecretAccessKey: 'b', region: 'us-east-1', s3BucketName: 'acme-calls', s3PathPrefix: 'recordings/' });
    const ended = await call({ name: 'Local', server: { url: hook.url }, serverMessages: ['call.artifact.upload'], artifactPlan: { recordingEnabled: false } });
    const upload = hook.received.filter((r) => r.message.type === 'call.artifact.upload' && (r.message.call as Loose).id === ended.id);
    expect(upload.map((r) => r.message.artifacts)).toEqual([
      [
        { type: 'end-of-call-report', success: true },
        { type: 'log', success: true },
      ],
    ]);
    const report = JSON.parse(readFileSync(join(folder, 'acme-calls', 'recordings', ended.id, 'end-of-call-report.json'), 'utf8')) as Loose;
    expect(report.message).toMatchObject({ type: 'end-of-call-report', call: { id: ended.id } });
  });
});
