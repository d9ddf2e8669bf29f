// The canary sweep: one run that uses every input taking a secret (the API key, --llm-key, a
// custom-llm credential, a webhook secret, the MCP token), each a canary, through the built CLI
// and its servers: voice dev (--api-key, --llm-key, a cassette), voice listen --secret --record,
// credentials and assistants created (and --dry-run), a call and a chat that use them, voice
// trigger, voice test (JUnit and JSON reports) and voice mcp --http. Then every output, every
// file written and every answer read (the CLI's, the MCP tools', the inspector's API and the
// emulator's REST answers) is searched: no canary appears anywhere, masked or not.
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel } from '#core/model/testing';
import { byRole, testerTurn } from '#core/evals/roles.test-support';
import { ROOT } from './build.js';
import { harness, json } from './harness.js';
import type { Harness, Run } from './harness.js';

const CANARIES = {
  apiKey: 'canary-api-key-7f3a9c1e5b0d',
  llmKey: 'canary-llm-key-2d8e4f6a0c1b',
  credential: 'canary-credential-9b1d3f5e7a2c',
  webhook: 'canary-webhook-secret-4c6e8a0b2d3f',
  mcpToken: 'canary-mcp-token-1a3c5e7f9b2d',
} as const;

const BIN = join(ROOT, 'bin', 'voice.js');
/** Everything the tools printed or answered during the run, by where it came from (and canaries it may hold). */
const seen: { where: string; text: string; may?: string }[] = [];
const keep = (where: string, text: unknown, may?: keyof typeof CANARIES): void => void seen.push({ where, text: typeof text === 'string' ? text : JSON.stringify(text), ...(may ? { may } : {}) });

let h: Harness;
let model: FakeModel;
const background: { name: string; child: ResultPromise; out: () => string }[] = [];

/** Starts a long-running `voice` command; resolves once its stdout or stderr matches `ready`. */
async function start(name: string, args: string[], ready: RegExp, env: Record<string, string> = {}): Promise<RegExpExecArray> {
  const child = execa(process.execPath, [BIN, ...args], { env: { ...h.env, VOICE_API_KEY: CANARIES.apiKey, NO_COLOR: '1', ...env }, extendEnv: false, reject: false, cwd: h.home, timeout: 240_000 });
  let text = '';
  background.push({ name, child, out: () => text });
  return new Promise((resolve, reject) => {
    const look = (d: Buffer): void => {
      text += d.toString();
      const m = ready.exec(text);
      if (m) resolve(m);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    void child.then(() => reject(new Error(`${name} ended early: ${text}`)));
  });
}

/** Runs `voice` to its end with the canary API key; keeps what it printed. */
async function voice(args: string[], env: Record<string, string> = {}, timeout = 60_000): Promise<Run> {
  const run = await h.voice(args, { env: { VOICE_API_KEY: CANARIES.apiKey, ...env }, timeout });
  keep(`voice ${args.join(' ')}`, run.stdout + run.stderr);
  return run;
}

/** Every file under `dir`, with its text. */
function files(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [{ path, text: readFileSync(path, 'latin1') }];
  });
}

beforeAll(async () => {
  // The model answers every role: the simulated caller hangs up after one turn.
  model = await startFakeModel(
    byRole({
      tester: (req) => (testerTurn(req) > 0 ? { toolCalls: [{ name: 'endCall' }] } : { text: 'I would like to book a check-up.' }),
      target: () => ({ text: 'Booked for Tuesday.' }),
      extractor: () => ({ text: '{"outcome":"booked"}' }),
      judge: () => ({ text: 'pass' }),
    }),
  );
  // A stand-in emulator the harness needs for its environment; the run below uses its own voice dev.
  h = await harness();
}, 120_000);

afterAll(async () => {
  for (const b of background) b.child.kill('SIGINT');
  await Promise.all(background.map((b) => b.child));
  await model?.close();
  await h?.close();
});

describe('secrets never leave', () => {
  it('no canary appears in any output, file or answer of a run that takes each through every input', async () => {
    const cassette = join(h.home, 'cassette.json');
    const [, dev] = (await start(
      'voice dev',
      ['dev', '--port', '0', '--api-key', CANARIES.apiKey, '--llm', model.url, '--llm-key', CANARIES.llmKey, '--llm-record', cassette, '--speed', '50'],
      /^(http:\/\/127\.0\.0\.1:\d+)$/m,
    )) as unknown as [string, string];
    const [, listen] = (await start('voice listen', ['listen', '--port', '0', '--record', join(h.home, 'listen.jsonl'), '--json'], /on (http:\/\/127\.0\.0\.1:\d+)/, {
      VOICE_WEBHOOK_SECRET: CANARIES.webhook,
    })) as unknown as [string, string];
    const at = { VOICE_API_URL: dev };

    // Credentials: a webhook one whose bearer token is the listen secret, a custom-llm one; and --dry-run.
    const hook = json<{ id: string }>(
      await voice(['credential', 'create', '--set', 'provider=webhook', '--set', 'authenticationPlan.type=bearer', '--set', `authenticationPlan.token=${CANARIES.webhook}`, '--json'], at),
    );
    const [created] = await Promise.all([
      voice(['credential', 'create', '--set', 'provider=custom-llm', '--set', `apiKey=${CANARIES.credential}`, '--json'], at),
      voice(['credential', 'create', '--set', 'provider=custom-llm', '--set', `apiKey=${CANARIES.credential}`, '--dry-run'], at),
      voice(['credential', 'create', '--set', 'provider=custom-llm', '--set', `apiKey=${CANARIES.credential}`, '--dry-run', '--json'], at),
    ]);
    const cred = json<{ id: string }>(created);
    // Two assistants: a custom-llm one with an inline credential, delivering to voice listen signed
    // with the webhook credential; one on --llm, delivering with the secret as x-vapi-secret.
    const custom = json<{ id: string }>(
      await voice(
        [
          'assistant',
          'create',
          '--set',
          'name=Custom',
          '--set',
          'firstMessage=Hello.',
          '--set',
          'model.provider=custom-llm',
          '--set',
          `model.url=${model.url}`,
          '--set',
          'model.model=m',
          '--set',
          `credentials=[{"provider":"custom-llm","apiKey":"${CANARIES.credential}"}]`,
          '--set',
          `server.url=${listen}/custom`,
          '--set',
          `server.credentialId=${hook.id}`,
          '--json',
        ],
        at,
      ),
    );
    const plain = json<{ id: string }>(
      await voice(
        [
          'assistant',
          'create',
          '--set',
          'name=Plain',
          '--set',
          'firstMessage=Hi.',
          '--set',
          'model.provider=openai',
          '--set',
          'model.model=gpt-4o-mini',
          '--set',
          `server.url=${listen}/plain`,
          '--set',
          `server.headers.x-vapi-secret=${CANARIES.webhook}`,
          '--json',
        ],
        at,
      ),
    );
    const suite = join(h.home, 'suite');
    cpSync(join(ROOT, 'fixtures/gitops/starter'), suite, { recursive: true });
    // The two assistants' calls and chats, the reads, the triggers and voice test touch nothing of
    // each other: they run at once.
    const callAndChat = async (assistant: { id: string }): Promise<void> => {
      const call = json<{ id: string }>(await voice(['call', 'create', '--set', `assistantId=${assistant.id}`, '--set', 'customer.number=+15555550100', '--json'], at));
      await voice(['call', 'watch', call.id], at, 120_000);
      await voice(['chat', 'create', '--set', `assistantId=${assistant.id}`, '--set', 'input=Hi there', '--json'], at);
    };
    await Promise.all([
      callAndChat(custom),
      callAndChat(plain),
      ...[
        ['credential', 'get', cred.id],
        ['credential', 'list'],
        ['assistant', 'get', custom.id],
        ['credential', 'get', 'no-such-credential'],
      ].map((args) => voice([...args, '--json'], at)),
      voice(['assistant', 'list'], { VOICE_API_URL: 'http://127.0.0.1:9' }),
      // voice trigger, signed with the secret as a header and with the webhook credential.
      voice(['trigger', 'status-update', '--forward-to', `${listen}/trigger`, '--header', `x-vapi-secret: ${CANARIES.webhook}`, '--json'], at),
      voice(['trigger', 'status-update', '--forward-to', `${listen}/trigger`, '--credential', hook.id, '--json'], at),
      // voice test on its own local platform with --llm-key: the JSON report and JUnit.
      voice(['test', suite, '--llm', model.url, '--llm-key', CANARIES.llmKey, '--junit', join(h.home, 'junit.xml'), '--json'], {}, 120_000),
    ]);

    // voice mcp --http with the MCP token, on the account (the canary key), reading and writing.
    const [, mcpUrl] = (await start('voice mcp', ['mcp', '--hosted', '--allow-writes', '--http', '0'], /streamable HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp)[\s\S]*needs Authorization/, {
      ...at,
      VOICE_MCP_TOKEN: CANARIES.mcpToken,
    })) as unknown as [string, string];
    const client = new Client({ name: 'sweep', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${CANARIES.mcpToken}` } } }));
    for (const [name, args] of [
      ['call_operation', { operation: 'GET /credential' }],
      ['call_operation', { operation: 'GET /assistant/{id}', path: { id: custom.id } }],
      ['upsert_assistant', { name: 'From MCP' }],
      ['test_chat', { assistantId: plain.id, input: 'Hello' }],
    ] as const) {
      keep(`mcp ${name}`, await client.callTool({ name, arguments: args as Record<string, unknown> }));
    }
    await client.close();
    const wrong = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: 'Bearer not-the-token-0123', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    keep('mcp 401', await wrong.text());

    // What the inspector reads, and the emulator's own REST answers.
    const key = { authorization: `Bearer ${CANARIES.apiKey}` };
    const deliveries = (await (await fetch(`${dev}/__voice/deliveries`, { headers: key })).json()) as { id: string }[];
    expect(deliveries.length).toBeGreaterThan(4);
    keep('inspector deliveries', deliveries);
    for (const d of deliveries.slice(0, 20)) keep(`inspector delivery ${d.id}`, await (await fetch(`${dev}/__voice/deliveries/${d.id}`, { headers: key })).text());
    for (let seq = 1; seq < 400; seq++) {
      const res = await fetch(`${dev}/__voice/requests/${seq}`, { headers: key });
      if (res.status === 404) break;
      keep(`inspector request ${seq}`, await res.text());
    }
    // The emulator's REST answers are the platform's: they hold none of the secrets the platform
    // never returns (its reference: "not returned in the API"). A webhook secret it does return, in
    // a webhook credential's plan (voice trigger --credential signs with it) and in a server's
    // headers, so there, and only there, it may be; everything the tools show of those is masked.
    for (const path of [`/credential/${cred.id}`, `/assistant/${custom.id}`, '/call', '/chat']) keep(`GET ${path}`, await (await fetch(`${dev}${path}`, { headers: key })).text());
    const listed = (await (await fetch(`${dev}/credential`, { headers: key })).json()) as { id: string; authenticationPlan?: { token?: string } }[];
    expect(listed.find((c) => c.id === hook.id)?.authenticationPlan?.token).toBe(CANARIES.webhook);
    keep('GET /credential', listed, 'webhook');
    keep(`GET /assistant/${plain.id}`, await (await fetch(`${dev}/assistant/${plain.id}`, { headers: key })).text(), 'webhook');
    // What the CLI prints of it is masked, in every output form.
    await Promise.all(
      [
        ['credential', 'get', hook.id, '--json'],
        ['credential', 'list'],
        ['assistant', 'get', plain.id],
      ].map((args) => voice(args, at)),
    );

    // The run did use each secret: the listener took signed messages, the models got their keys.
    const auth = model.requests.map((r) => r.headers.authorization);
    expect(auth).toContain(`Bearer ${CANARIES.credential}`);
    expect(auth).toContain(`Bearer ${CANARIES.llmKey}`);
    for (const b of background) b.child.kill('SIGINT');
    await Promise.all(background.map((b) => b.child));
    for (const b of background) keep(b.name, b.out());
    const listened = readFileSync(join(h.home, 'listen.jsonl'), 'utf8');
    expect(listened).toContain('"type":"status-update"');
    expect(listened).toContain('"type":"end-of-call-report"');
    expect(background.find((b) => b.name === 'voice listen')?.out()).not.toMatch(/refused/);

    const written = files(h.home);
    expect(written.map((f) => f.path)).toEqual(expect.arrayContaining([cassette, join(h.home, 'junit.xml'), join(h.home, 'listen.jsonl')]));
    for (const f of written) keep(`file ${f.path}`, f.text);
    const leaks = seen.flatMap(({ where, text, may }) =>
      Object.entries(CANARIES)
        .filter(([name, canary]) => name !== may && text.includes(canary))
        .map(([name]) => `${name} in ${where}`),
    );
    expect(leaks).toEqual([]);
  }, 600_000);
});
