// The operations the platform publishes beyond the spec, each called through the REST client
// against the emulator (status and shape). Registered inside client.test.ts's suite so its
// "covered every catalogue operation" check sees them.
import { expect, it } from 'vitest';
import type { Client } from '../client/index.js';
import { BadRequestError, NotFoundError } from '../client/node.js';

type Crud = (ns: never, body: object, patch: object, kind: 'plain' | 'paginated', extra?: (created: { id: string }) => Promise<void>) => Promise<void>;

const ENDED_CALL = 'cecbff8e-7abf-5105-9a43-49b766f68963';
const SEED_ISSUE = '5f0c2a53-6a0e-5b8e-9d54-0d3c1f6b7a10';
const TARGET = { type: 'assistant', assistantId: '00000000-0000-4000-8000-000000000005' } as const;

/** Checks a WAV file: RIFF/WAVE header, PCM format, and a data chunk as long as it says. */
export function expectWav(bytes: Uint8Array, channels: number): void {
  const b = Buffer.from(bytes);
  expect(b.toString('ascii', 0, 4)).toBe('RIFF');
  expect(b.readUInt32LE(4)).toBe(b.length - 8);
  expect(b.toString('ascii', 8, 12)).toBe('WAVE');
  expect(b.toString('ascii', 12, 16)).toBe('fmt ');
  expect(b.readUInt16LE(20)).toBe(1);
  expect(b.readUInt16LE(22)).toBe(channels);
  expect(b.toString('ascii', 36, 40)).toBe('data');
  expect(b.readUInt32LE(40)).toBe(b.length - 44);
  expect(b.length - 44).toBeGreaterThan(0);
}

/** Registers the tests; `client` is read when they run (it is made in beforeAll). */
export function publishedOperations(client: () => Client, crud: Crud): void {
  it('call files: recordings (WAV) of ended calls only, packet capture, log file', async () => {
    const c = client();
    expectWav(await c.call.recording.get(ENDED_CALL), 1);
    expectWav(await c.call.recording.stereo(ENDED_CALL), 2);
    expectWav(await c.call.recording.customer(ENDED_CALL), 1);
    expectWav(await c.call.recording.assistant(ENDED_CALL), 1);
    await expect(c.call.recording.video(ENDED_CALL)).rejects.toBeInstanceOf(NotFoundError);
    const pcap = Buffer.from(await c.call.pcap(ENDED_CALL));
    expect(pcap.readUInt32LE(0)).toBe(0xa1b2c3d4);
    const live = await c.call.create({ assistantId: 'a1', customer: { number: '+15550123' } });
    await expect(c.call.recording.get(live.id)).rejects.toMatchObject({ status: 404, message: expect.stringContaining('has not ended') });
    const logs = new TextDecoder()
      .decode(await c.call.logs(live.id))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { callId: string });
    expect(logs[0]?.callId).toBe(live.id);
    // The platform refuses a client setting a call's status (UpdateCallDTO has only `name`), so a
    // live call cannot be ended from here: its recording once it ends is the call engine's to test.
    await expect(c.call.update(live.id, { status: 'ended' } as never)).rejects.toBeInstanceOf(BadRequestError);
    await expect(c.call.pcap(live.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('v2 campaigns (same store as v1) with contacts, v2 knowledge bases with files', async () => {
    const c = client();
    // A campaign starts when created and a delete archives it: its own round trip, not the generic one.
    const later = { earliestAt: new Date(Date.now() + 86_400_000).toISOString() };
    const camp = await c.v2.campaign.create({ name: 'V2', phoneNumberId: '6375cea7-dbcb-5ace-8de8-94aedb4b3040', customers: [{ number: '+15550111' }, { number: '+15550112' }], schedulePlan: later });
    expect(await c.v2.campaign.update(camp.id, { name: 'V2b' })).toMatchObject({ name: 'V2b' });
    expect((await c.campaign.get(camp.id)).name).toBe('V2b');
    expect((await c.v2.campaign.get(camp.id, { includeCounters: true })).contactCounters).toMatchObject({ pending: 2, dispatched: 0 });
    expect((await c.v2.campaign.list({ id: camp.id })).results.map((x) => x.id)).toEqual([camp.id]);
    expect((await c.v2.campaign.list({ id: camp.id, includeCounters: true })).results[0]?.contactCounters).toMatchObject({ pending: 2 });
    const contacts = await c.v2.campaign.contacts(camp.id, { limit: 1 });
    expect(contacts.results).toEqual([expect.objectContaining({ number: '+15550111', status: 'contact.pending' })]);
    expect(contacts.metadata).toMatchObject({ totalItems: 2, hasNextPage: true });
    expect(await c.v2.campaign.delete(camp.id)).toMatchObject({ id: camp.id, status: 'archived', endedReason: 'campaign.scheduled.ended-by-user' });
    // A v2 get answers with the files too; the generic round trip compares the rest.
    const kbs = {
      ...c.v2.knowledgeBase,
      get: async (id: string) => {
        const { files, ...kb } = await c.v2.knowledgeBase.get(id);
        expect(Array.isArray(files)).toBe(true);
        return kb;
      },
    };
    await crud(kbs as never, { name: 'KB v2' }, { description: 'd' }, 'plain', async (kb) => {
      const file = await c.file.create({ file: Buffer.from('faq'), filename: 'faq.txt' });
      const attached = await c.v2.knowledgeBase.file.create(kb.id, { fileId: file.id });
      expect(attached).toMatchObject({ knowledgeBaseV2Id: kb.id, fileId: file.id, status: 'ready' });
      expect((await c.v2.knowledgeBase.file.list(kb.id)).map((f) => f.id)).toEqual([attached.id]);
      expect((await c.v2.knowledgeBase.get(kb.id)).files.map((f) => f.id)).toEqual([attached.id]);
      expect(await c.v2.knowledgeBase.file.retry(kb.id, attached.id)).toMatchObject({ status: 'ready' });
      expect((await c.v2.knowledgeBase.file.delete(kb.id, attached.id)).id).toBe(attached.id);
      await expect(c.v2.knowledgeBase.file.delete(kb.id, attached.id)).rejects.toBeInstanceOf(NotFoundError);
    });
    await expect(c.v2.knowledgeBase.create({} as never)).rejects.toBeInstanceOf(BadRequestError);
  });

  it('structured outputs, and running them over calls (a regex output without a model; an ai output refused without one)', async () => {
    const c = client();
    await crud(c.structuredOutput as never, { name: 'booked', type: 'regex', regex: '/book/i', schema: { type: 'boolean' } }, { description: 'Was a slot booked?' }, 'paginated', async (so) => {
      const preview = (await c.structuredOutput.run({ callIds: [ENDED_CALL], structuredOutputId: so.id, previewEnabled: true })) as Record<string, { result: unknown }>;
      expect(preview[ENDED_CALL]).toEqual({ name: 'booked', result: false });
      expect(await c.structuredOutput.run({ callIds: [ENDED_CALL], structuredOutputId: so.id })).toHaveProperty('message');
      expect((await c.call.get(ENDED_CALL)).artifact).toMatchObject({ structuredOutputs: { [so.id]: { name: 'booked', result: false } } });
    });
    const ai = c.structuredOutput.run({ callIds: [ENDED_CALL], structuredOutput: { name: 'booked', schema: { type: 'boolean' } }, previewEnabled: true } as never);
    await expect(ai).rejects.toBeInstanceOf(BadRequestError);
    await expect(ai).rejects.toMatchObject({ message: expect.stringContaining('No model is configured') });
    await expect(c.structuredOutput.create({ name: 'no schema' } as never)).rejects.toBeInstanceOf(BadRequestError);
  });

  it('evals and eval runs: without a model a run ends at once, failed, saying why', async () => {
    const c = client();
    const messages = [
      { role: 'user', content: 'Can I book for Tuesday?' },
      { role: 'assistant', judgePlan: { type: 'exact', content: 'Yes' } },
    ];
    await crud(c.eval as never, { type: 'chat.mockConversation', messages }, { name: 'Booking' }, 'paginated', async (ev) => {
      const run = await c.eval.run.create({ type: 'eval', evalId: ev.id, target: TARGET });
      expect(run).toMatchObject({ type: 'eval', status: 'ended', endedReason: 'error', endedMessage: expect.stringContaining('No model is configured') });
      const done = await c.eval.run.get(run.id);
      expect(done.endedMessage).toContain('--llm');
      expect(done.results).toEqual([expect.objectContaining({ status: 'fail' })]);
      expect((await c.eval.run.list({ id: run.id })).results.map((r) => r.id)).toEqual([run.id]);
      expect((await c.eval.run.delete(run.id)).id).toBe(run.id);
      await expect(c.eval.run.get(run.id)).rejects.toBeInstanceOf(NotFoundError);
    });
    await expect(c.eval.run.create({ type: 'eval', target: { type: 'robot' } } as never)).rejects.toBeInstanceOf(BadRequestError);
  });

  it('simulations: personalities, scenarios, simulations, suites, runs and their items', async () => {
    const c = client();
    let personalityId = '';
    let scenarioId = '';
    await crud(c.eval.simulation.personality as never, { name: 'Hurried', assistant: { model: { provider: 'openai', model: 'gpt-4o' } } }, { name: 'Rushed' }, 'plain', async (p) => {
      personalityId = (await c.eval.simulation.personality.create({ name: 'Calm', assistant: {} })).id;
      expect(p.id).not.toBe(personalityId);
    });
    await crud(c.eval.simulation.scenario as never, { name: 'Book', instructions: 'Book Tuesday', evaluations: [] }, { name: 'Book 2' }, 'plain', async () => {
      scenarioId = (await c.eval.simulation.scenario.create({ name: 'Cancel', instructions: 'Cancel', evaluations: [{ comparator: '=', value: true }] })).id;
      const generated = await c.eval.simulation.scenario.generate({ assistantId: 'a1' });
      expect(generated.scenarios.map((s) => s.category)).toEqual(['happy_path', 'edge_case', 'failure_mode']);
    });
    await crud(c.eval.simulation as never, { scenarioId, personalityId }, { name: 'Sim' }, 'plain', async (sim) => {
      await crud(c.eval.simulation.suite as never, { name: 'Suite', simulationIds: [sim.id] }, { name: 'Suite 2' }, 'plain', async (suite) => {
        const started = await c.eval.simulation.run.create({
          simulations: [
            { type: 'simulationSuite', simulationSuiteId: suite.id },
            { type: 'simulation', simulationId: sim.id },
          ],
          target: TARGET,
          iterations: 2,
        });
        expect(started).toMatchObject({ status: 'ended', url: expect.stringContaining(`/eval/simulation/run/${started.id}`) });
        expect(started.simulationRunItemIds).toHaveLength(4);
        const items = await c.eval.simulation.run.item.list(started.id);
        // No model: every item failed with the reason, none passed.
        expect(items.map((i) => i.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
        expect(items[0]!.failureReason).toContain('No model is configured');
        expect(await c.eval.simulation.run.item.cancel(started.id, items[0]!.id)).toMatchObject({ status: 'failed' });
        expect((await c.eval.simulation.concurrency()).concurrencyLimit).toBe(10);
        const run = await c.eval.simulation.run.get(started.id);
        expect(run).toMatchObject({ status: 'ended', itemCounts: { total: 4, passed: 0, failed: 4 } });
        const listed = await c.eval.simulation.run.list({ status: 'ended' });
        expect(listed.results.find((r) => r.id === run.id)).toHaveProperty('summary.simulationCount', 2);
        expect(await c.eval.simulation.run.item.suggest(started.id, items[1]!.id, { persist: 'true' })).toHaveProperty('improvementSuggestions');
        expect((await c.eval.simulation.run.item.get(started.id, items[1]!.id)).improvementSuggestions).toBeDefined();
        expect((await c.eval.simulation.run.cancel(started.id)).status).toBe('ended');
        const other = await c.eval.simulation.run.create({ simulations: [{ type: 'simulation', simulationId: sim.id }], target: { type: 'squad', squadId: '00000000-0000-4000-8000-000000000006' } });
        expect(await c.eval.simulation.run.cancel(other.id)).toMatchObject({ status: 'ended' });
      });
    });
  });

  it('reporting insights and boards, scorecards, monitoring issues and policies, metrics', async () => {
    const c = client();
    await crud(c.reporting.insight as never, { type: 'bar', queries: [{ type: 'vapiql-json', table: 'call', column: 'cost', operation: 'sum' }] }, { name: 'Calls' }, 'paginated', async (ins) => {
      expect(await c.reporting.insight.run(ins.id, {})).toMatchObject({ insightId: ins.id, result: [{ callCount: expect.any(Number) }] });
      expect(await c.reporting.insight.preview({ type: 'pie', queries: [] })).toMatchObject({ insightId: 'preview' });
    });
    await crud(c.reporting.board as never, { name: 'Board', layout: { columns: 6 } }, { name: 'Board 2' }, 'paginated');
    const overview = await c.reporting.board.metricsOverview();
    expect((await c.reporting.board.metricsOverview()).id).toBe(overview.id);
    await crud(c.observability.scorecard as never, { metrics: [] }, { name: 'Score' }, 'paginated');
    await crud(
      c.monitoring.policy as never,
      { name: 'Latency', threshold: { type: 'count', comparator: 'gt', value: 3 }, lookbackWindowMinutes: 60, severity: 'warning' },
      { severity: 'error' },
      'plain',
    );
    await expect(c.monitoring.policy.create({ name: 'x' } as never)).rejects.toBeInstanceOf(BadRequestError);
    expect((await c.monitoring.issue.list({ status: 'created' })).map((i) => i.id)).toContain(SEED_ISSUE);
    expect(await c.monitoring.issue.get(SEED_ISSUE)).toMatchObject({ totalCalls: 2, status: 'created' });
    expect(await c.monitoring.issue.update(SEED_ISSUE, { status: 'resolved', resolvedBy: 'me' })).toMatchObject({ status: 'resolved' });
    await expect(c.monitoring.issue.update(SEED_ISSUE, { status: 'gone' } as never)).rejects.toBeInstanceOf(BadRequestError);
    const [m] = await c.metrics.get({ rangeStart: new Date(Date.now() - 86_400_000 * 7) });
    const calls = await c.call.list({ limit: 1000 });
    expect(m).toMatchObject({ callCount: calls.length, billWithinBillingLimit: true });
  });

  it('chat completions, code-tool tests and provider resources', async () => {
    const c = client();
    const done = await c.chat.completions({ messages: [{ role: 'user', content: 'Opening hours?' }] });
    expect(done).toMatchObject({ object: 'chat.completion', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: expect.stringContaining('Opening hours?') } }] });
    await expect(c.chat.completions({} as never)).rejects.toBeInstanceOf(BadRequestError);
    expect(await c.tool.codeTest()).toMatchObject({ success: false, error: expect.stringContaining('does not run code') });
    const res = await c.provider.resource.create('cartesia', 'pronunciation-dictionary');
    expect(res).toMatchObject({ provider: 'cartesia', resourceName: 'pronunciation-dictionary', resourceId: expect.any(String), resource: {} });
    expect((await c.provider.resource.list('cartesia', 'pronunciation-dictionary')).results.map((r) => r.id)).toEqual([res.id]);
    expect((await c.provider.resource.list('11labs', 'pronunciation-dictionary')).results).toEqual([]);
    expect((await c.provider.resource.get('cartesia', 'pronunciation-dictionary', res.id)).id).toBe(res.id);
    expect((await c.provider.resource.update('cartesia', 'pronunciation-dictionary', res.id)).id).toBe(res.id);
    expect((await c.provider.resource.delete('cartesia', 'pronunciation-dictionary', res.id)).id).toBe(res.id);
    await expect(c.provider.resource.get('cartesia', 'pronunciation-dictionary', res.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.provider.resource.create('openai', 'pronunciation-dictionary')).rejects.toBeInstanceOf(BadRequestError);
  });
}
