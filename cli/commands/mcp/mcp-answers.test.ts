// `voice mcp` answers as a coding agent needs them, through the built CLI: `call_operation` gives
// back what was made whole (no depth cut, long texts kept), cut only past its stated size with a
// note; `run_tests` under `--api-url` runs on that `voice dev` and its model, the folder applied there.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Emulator } from 'voice-agent-core/emulator';
import { startFakeModel } from '#core/model/testing';
import type { FakeModel, FakeReply, FakeRequest } from '#core/model/testing';
import { byRole, systemOf, testerTurn, transcriptIn } from '#core/evals/roles.test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../../test/build.js';
import { BIN, connect, textOf } from './mcp-client.test-support.js';

type Json = Record<string, unknown>;
const home = mkdtempSync(join(tmpdir(), 'voice-mcp-answers-'));

beforeAll(() => ensureBuilt());
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A JSON Schema nested `depth` objects deep. */
function nested(depth: number): Json {
  return depth === 0 ? { type: 'string', description: 'the innermost field' } : { type: 'object', properties: { [`level${depth}`]: nested(depth - 1) } };
}

describe('call_operation', () => {
  let agent: Awaited<ReturnType<typeof connect>>;
  beforeAll(async () => {
    agent = await connect(['mcp']);
  }, 60_000);
  afterAll(async () => {
    await agent?.client.close();
  });

  const call = async (args: Json): Promise<Json> => {
    const result = await agent.client.callTool({ name: 'call_operation', arguments: args });
    expect(result.isError, textOf(result)).toBeFalsy();
    return JSON.parse(textOf(result)) as Json;
  };

  it('reads back an assistant whole: its tool schema at any depth, its long prompt', async () => {
    const parameters = nested(9);
    const prompt = `You answer for the clinic. ${'Be brief and kind. '.repeat(120)}`;
    const model = { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: prompt }], tools: [{ type: 'function', function: { name: 'book', parameters } }] };
    const made = (await call({ operation: 'POST /assistant', body: { name: 'Deep', model } })).answer as { id: string };
    const read = await call({ operation: 'GET /assistant/{id}', path: { id: made.id } });
    const got = (read.answer as { model: typeof model }).model;
    expect(got.tools[0]?.function.parameters).toEqual(parameters);
    expect(got.messages[0]?.content).toBe(prompt);
    expect(read.truncated).toBeUndefined();
  });

  it('cuts an answer only past its stated size, keeping whole items and saying what was left out', async () => {
    const prompt = 'x'.repeat(40_000);
    for (const name of ['Big 1', 'Big 2', 'Big 3'])
      await call({ operation: 'POST /assistant', body: { name, model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: prompt }] } } });
    const listed = await call({ operation: 'GET /assistant' });
    const shown = /showing the first (\d+) of (\d+) items/.exec(String(listed.truncated));
    expect(String(listed.truncated)).toMatch(/over this tool's limit of 100000/);
    expect(Number(shown?.[1])).toBeLessThan(Number(shown?.[2]));
    const items = listed.answer as { name: string; model?: { messages?: { content: string }[] } }[];
    expect(items).toHaveLength(Number(shown?.[1]));
    expect(JSON.stringify(items).length).toBeLessThanOrEqual(100_000);
    for (const a of items.filter((i) => i.name.startsWith('Big'))) expect(a.model?.messages?.[0]?.content).toBe(prompt);
  });
});

describe('run_tests under --api-url', () => {
  let model: FakeModel;
  let emu: Emulator;
  beforeAll(async () => {
    // The starter folder's callers, assistant, extractor and judge, as voice-test.test.ts scripts them.
    model = await startFakeModel(
      byRole({
        tester: (req: FakeRequest): FakeReply => {
          if (testerTurn(req) > 0) return { toolCalls: [{ name: 'endCall' }] };
          return { text: systemOf(req).includes('Friday') ? 'Please move my Monday check-up to Friday.' : 'Check-up next Tuesday after 2 pm, quickly.' };
        },
        target: (): FakeReply => ({ text: 'Riverside Clinic, how can I help?' }),
        extractor: (req: FakeRequest): FakeReply => ({ text: transcriptIn(req).includes('Friday') ? '{"outcome":"moved","appointmentDay":"Friday"}' : '{"outcome":"booked"}' }),
        judge: (): FakeReply => ({ text: 'pass' }),
      }),
    );
    // A `voice dev --llm URL` of the user's: the model is configured there, not on voice mcp.
    emu = await startEmulator({ port: 0, speed: 200, model: { url: model.url } });
  });
  afterAll(async () => {
    await emu?.close();
    await model?.close();
  });

  it("applies the folder to that voice dev and runs it there, on that platform's model", async () => {
    const dir = join(home, 'starter');
    cpSync(join(ROOT, 'fixtures/gitops/starter'), dir, { recursive: true });
    const agent = await connect(['mcp', '--api-url', emu.url]);
    try {
      const result = await agent.client.callTool({ name: 'run_tests', arguments: { dir } });
      const out = JSON.parse(textOf(result)) as { passed: boolean; exitCode: number; result: unknown };
      expect(out.passed, JSON.stringify(out.result)).toBe(true);
      expect(out.exitCode).toBe(0);
      expect(JSON.stringify(out.result)).not.toContain('No model is configured');
    } finally {
      await agent.client.close();
    }
    const squads = (await emu.client.squad.list()) as { name?: string }[];
    expect(squads.map((s) => s.name)).toContain('Front office');
    expect(model.requests.length).toBeGreaterThan(0);
  }, 180_000);

  it('refuses --llm options beside --api-url: the running platform has its own model (exit 2)', async () => {
    const r = await execa(process.execPath, [BIN, 'mcp', '--api-url', emu.url, '--llm', model.url], { reject: false, input: '' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('a running one (--api-url, --hosted) uses its own model');
  });
});
