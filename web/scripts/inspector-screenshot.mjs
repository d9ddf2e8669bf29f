#!/usr/bin/env node
// Takes the README's screenshot of a call's view in the `voice dev` inspector: starts the built
// `voice dev --speed 20` and a loopback server answering tool calls, runs one call, and saves
// docs/inspector-call.png (1280 px wide, light theme). Run after `npm run build`.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const hook = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const m = JSON.parse(body).message;
    const answer = m.type === 'tool-calls' ? { results: m.toolCallList.map((c) => ({ toolCallId: c.id, result: `Booked for ${JSON.parse(c.function.arguments).day}, 10:00.` })) } : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});
await new Promise((r) => hook.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${hook.address().port}/webhook`;
const dev = spawn(process.execPath, [`${root}bin/voice.js`, 'dev', '--port', '0', '--speed', '20', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((r) => dev.stdout.on('data', (d) => r(d.toString().trim())));
const headers = { authorization: 'Bearer any-key', 'content-type': 'application/json' };
const post = async (path, body) => (await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) })).json();
const assistant = await post('/assistant', {
  name: 'Booker',
  firstMessage: 'Hello, Booker here. How can I help?',
  server: { url: hookUrl, headers: { 'x-vapi-secret': 'not-shown' } },
  model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'function', function: { name: 'bookAppointment', parameters: { type: 'object', properties: { day: { type: 'string', enum: ['tuesday'] } } } } }] },
});
const call = await post('/call', { assistantId: assistant.id, customer: { number: '+14155550100' } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
  await page.goto(`${url}/__voice/inspector/#/calls/${call.id}`);
  await page.getByRole('heading', { name: 'End-of-call report' }).waitFor({ timeout: 30_000 });
  await page.locator('audio').waitFor({ state: 'attached' });
  await page.screenshot({ path: `${root}docs/inspector-call.png` });
} finally {
  await browser.close();
  dev.kill('SIGINT');
  hook.close();
}
