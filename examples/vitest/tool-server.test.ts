import { createServer } from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { startEmulator } from 'voice-agent-core/emulator';

// Your tool server (here inline): answers `tool-calls` with a booking.
const app = createServer((req, res) => {
  let body = '';
  req
    .on('data', (c) => (body += c))
    .on('end', () => {
      const { message } = JSON.parse(body);
      const results = (message.toolCallList ?? []).map((c: { id: string }) => ({
        toolCallId: c.id,
        result: 'Booked for Monday 10am.',
      }));
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ results }));
    });
}).listen(0);
const emu = await startEmulator({ speed: 100 });
afterAll(async () => Promise.all([emu.close(), new Promise((done) => app.close(done))]));

it('books through my tool server during a simulated call', async () => {
  const toolUrl = `http://127.0.0.1:${(app.address() as { port: number }).port}/tools`;
  const tool = await emu.client.tool.create({
    type: 'function',
    function: { name: 'book' },
    server: { url: toolUrl },
  });
  const assistant = await emu.client.assistant.create({
    name: 'Booker',
    firstMessage: 'Hi!',
    model: { provider: 'openai', model: 'gpt-4o', toolIds: [tool.id] },
  });
  const call = await emu.client.call.create({
    assistantId: assistant.id,
    customer: { number: '+14155550100' },
  });

  const ended = await emu.waitForCall(call.id, 'ended');
  const toolCall = emu.deliveries(call.id).find((d) => d.type === 'tool-calls');
  expect(toolCall?.status).toBe(200);
  expect(JSON.stringify(ended.messages)).toContain('Booked for Monday 10am.');
  emu.reset(); // back to the starting state for the next test
});
