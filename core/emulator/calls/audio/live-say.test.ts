// A line said live (`voice call say ID --after-seconds 1 "..."`, the emulator's say endpoint) while
// the call waits on a tool: it is said one second into the assistant's next line, which stops for
// it as stopSpeakingPlan says, and it is then the customer's turn. The call's own clock decides
// where: the tool's server says the line before it answers, so nothing races the wall clock.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Json } from '../../../messages/index.js';
import { startEmulator } from '../../index.js';
import type { Emulator } from '../../index.js';

const LONG = 'We open at nine in the morning on weekdays, at ten on Saturdays, and we stay closed on Sundays and public holidays.';
const auth = { authorization: 'Bearer k', 'content-type': 'application/json' };
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** A tool server that says `line` on the call, then answers with LONG (the assistant speaks it). */
async function toolServer(emu: () => Emulator, line: Json): Promise<{ url: string; said: number[] }> {
  const said: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const message = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message: Json }).message;
      const callId = String((message.call as Json).id);
      const toolCallId = String(((message.toolCallList as Json[])[0] as Json).id);
      void fetch(`${emu().url}/__voice/calls/${callId}/say`, { method: 'POST', headers: auth, body: JSON.stringify(line) }).then((r) => {
        said.push(r.status);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ results: [{ toolCallId, result: LONG }] }));
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  closing.push(() => new Promise<void>((done) => server.close(() => done())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, said };
}

describe('a line said live over the assistant', () => {
  it("--after-seconds 1: said a second into its next line, which it cuts; then it is the customer's turn", async () => {
    const ref: { emu?: Emulator } = {};
    const tools = await toolServer(() => ref.emu as Emulator, { text: 'Sorry, just Sunday please.', afterSeconds: 1 });
    const emu = (ref.emu = await startEmulator({ speed: 1000, audio: true, scenario: { turns: [{ say: 'When are you open?' }] } }));
    closing.push(() => emu.close());
    const tool = { type: 'function', function: { name: 'hours', parameters: { type: 'object', properties: {} } }, server: { url: tools.url } };
    const assistant = { name: 'Desk', firstMessage: 'Hello.', stopSpeakingPlan: { numWords: 0, voiceSeconds: 0.2 }, model: { provider: 'openai', model: 'gpt-4o-mini', tools: [tool] } };
    const created = (await emu.client.assistant.create(assistant as never)) as { id: string };
    const placed = (await emu.client.call.create({ assistantId: created.id, customer: { number: '+14155550100' } } as never)) as { id: string };
    await emu.calls.idle();
    expect(tools.said).toEqual([202]);
    const events = emu.calls.timeline(placed.id)!.events;
    const reply = events.find((e) => e.type === 'speech' && e.text === LONG) as Extract<(typeof events)[number], { type: 'speech' }>;
    const live = events.find((e) => e.type === 'speech' && e.side === 'customer' && e.text === 'Sorry, just Sunday please.') as Extract<(typeof events)[number], { type: 'speech' }>;
    expect(live.at - reply.at).toBeCloseTo(1, 3);
    expect(events.find((e) => e.type === 'interruption')).toMatchObject({ by: 'customer', rule: 'voiceSeconds' });
    const call = (await emu.client.call.get(placed.id)) as Json;
    const transcript = String((call.artifact as Json).transcript).split('\n');
    expect(transcript).toContain(`AI: ${reply.cut!.heard}`);
    expect(transcript).toContain('User: Sorry, just Sunday please.');
    expect(transcript.join('\n')).not.toContain('public holidays');
  });
});
