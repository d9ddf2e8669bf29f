// `voice dev reset`: an emulator holding 1,000 resources and 100 ended calls returns to that
// starting state (calls cancelled, store swapped, record cleared). Budget: under 50 ms, measured
// as the emulator's own time for the reset (the figure) and the HTTP round trip (in the note).
import { randomUUID } from 'node:crypto';
import { startEmulator } from 'voice-agent-core/emulator';
import type { Snapshot } from 'voice-agent-core/emulator';
import type { Rec } from '#core/emulator/store/store';
import { BENCH_KEY, assistantBody } from './lib/emulator.js';
import { row, summarize } from './lib/stats.js';
import type { BenchContext, Benchmark, Row } from './lib/types.js';

const bench = 'reset';
const headers = { authorization: `Bearer ${BENCH_KEY}` };

/** A starting state: `resources` assistants and tools, and `calls` ended calls with a 20-line conversation each. */
function startingState(resources: number, calls: number): Snapshot {
  const at = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const rec = (i: number, fields: Record<string, unknown>): Rec => ({ id: randomUUID(), orgId: 'bench-org', ...fields, createdAt: at(i), updatedAt: at(i) });
  const assistant: Rec[] = [];
  const tool: Rec[] = [];
  for (let i = 0; i < resources; i++) {
    if (i % 2) tool.push(rec(i, { type: 'function', function: { name: `tool_${i}`, parameters: { type: 'object', properties: { q: { type: 'string' } } } } }));
    else assistant.push(rec(i, assistantBody(i)));
  }
  const messages = Array.from({ length: 20 }, (_, k) => ({
    role: k % 2 ? 'user' : 'bot',
    message: `Line ${k} of the conversation, a sentence of ordinary length.`,
    time: 1_700_000_000_000 + k * 3000,
    secondsFromStart: k * 3,
    endTime: 1_700_000_002_000 + k * 3000,
    duration: 2000,
  }));
  const call = Array.from({ length: calls }, (_, i) =>
    rec(resources + i, {
      type: 'outboundPhoneCall',
      status: 'ended',
      endedReason: 'customer-ended-call',
      assistantId: assistant[0]?.id,
      customer: { number: '+15555550123' },
      messages,
      artifact: { messages, transcript: messages.map((m) => m.message).join('\n') },
      analysis: { summary: 'A call.' },
      cost: 0.1,
    }),
  );
  return { format: 'voice-emulator', version: 1, orgId: 'bench-org', userId: 'bench-user', collections: { assistant, tool, call } } as Snapshot;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  // Quick runs (the smoke test) keep the same shape at a tenth of the size.
  const resources = ctx.quick ? 100 : 1_000;
  const calls = ctx.quick ? 10 : 100;
  // Started from the state, as `voice dev --import` does: a reset returns to it.
  const emu = await startEmulator({ port: 0, initial: startingState(resources, calls) });
  try {
    const u = emu.url;
    const server: number[] = [];
    const trip: number[] = [];
    for (let i = 0; i < (ctx.quick ? 3 : 30); i++) {
      const started = performance.now();
      const res = await fetch(`${u}/__voice/reset`, { method: 'POST', headers });
      const body = (await res.json()) as { ms: number; objects: number };
      trip.push(performance.now() - started);
      server.push(body.ms);
    }
    const objects = emu.states.export();
    const ended = (objects.collections.call ?? []).filter((c) => c.status === 'ended').length;
    ctx.log(`reset: ${resources} resources, ${ended} ended calls; median ${summarize(server).value.toFixed(2)} ms`);
    return [
      row({
        bench,
        metric: `reset of ${resources} resources and ${ended} ended calls`,
        unit: 'ms',
        figure: server,
        budget: { op: '<=', limit: 50, on: 'figure' },
        note: `HTTP round trip median ${summarize(trip).value.toFixed(2)} ms`,
      }),
    ];
  } finally {
    await emu.close();
  }
}

/** The reset benchmark. */
const benchmark: Benchmark = { name: bench, title: 'voice dev reset', run };

export default benchmark;
