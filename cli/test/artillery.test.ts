// The exported Artillery script, run by Artillery itself against a loopback server: the server
// gets exactly the requests per message type that `voice load` sends for the same options.
// Artillery is not a dependency (it pulls in a browser and cloud SDKs): the test runs when
// VOICE_ARTILLERY_BIN names an installed `artillery` binary. Install one in a folder of its own,
// without its install scripts (2.0.21 runs on Node 20; later 2.0 releases need Node 22.13):
//   (mkdir -p /tmp/artillery && cd /tmp/artillery && npm init -y && npm install artillery@2.0.21 --ignore-scripts)
//   VOICE_ARTILLERY_BIN=/tmp/artillery/node_modules/.bin/artillery npx vitest run cli/test/artillery.test.ts
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import { artilleryScript } from './artillery-script.js';
import { devServer, messageOf } from './dev-server.js';
import type { Got } from './dev-server.js';
import { fileHarness, json } from './harness.js';

const BIN = process.env.VOICE_ARTILLERY_BIN;
const h = fileHarness();

const answer = (g: Got): { body: unknown } => {
  const m = messageOf(g);
  if (m.type === 'assistant-request') return { body: { assistantId: 'a1' } };
  if (m.type === 'tool-calls') return { body: { results: (m.toolCallList as { id: string }[]).map((c) => ({ toolCallId: c.id, result: 'Booked.' })) } };
  return { body: {} };
};

const countBy = (got: Got[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const g of got) out[String(messageOf(g).type)] = (out[String(messageOf(g).type)] ?? 0) + 1;
  return out;
};

it('artillery run of the export sends the requests per message type that voice load sends', async (ctx) => {
  if (!BIN) return ctx.skip('VOICE_ARTILLERY_BIN is not set: set it to an installed artillery binary (see the top of cli/test/artillery.test.ts) to run this test');
  expect(existsSync(BIN), `VOICE_ARTILLERY_BIN=${BIN} does not exist`).toBe(true);
  const ours = await devServer(answer);
  const theirs = await devServer(answer);
  try {
    const args = ['--calls', '10', '--inbound', '0.3', '--speed', '100', '--rate', '5'];
    const run = await h.current.voice(['load', '--server', `${ours.url}/hook`, ...args, '--json'], { timeout: 60_000 });
    expect(run.exitCode, run.stderr).toBe(0);
    const file = join(h.current.home, 'artillery', 'load.yml');
    const exported = await h.current.voice(['load', '--server', `${theirs.url}/hook`, ...args, '--export', 'artillery', file], { timeout: 60_000 });
    expect(exported.exitCode, exported.stderr).toBe(0);
    const art = await execa(BIN, ['run', file], { reject: false, cwd: h.current.home, env: { ARTILLERY_DISABLE_TELEMETRY: 'true' }, timeout: 240_000 });
    expect(art.exitCode, art.stdout + art.stderr).toBe(0);
    expect(art.stdout).toMatch(/vusers\.completed: \.+ 10\n/);
    expect(art.stdout).toMatch(/vusers\.failed: \.+ 0\n/);
    const sent = countBy(ours.got);
    expect(Object.fromEntries(json<{ types: { type: string; count: number }[] }>(run).types.map((t) => [t.type, t.count]))).toEqual(sent);
    expect(countBy(theirs.got)).toEqual(sent);
    expect(artilleryScript(file).perType).toEqual(sent);
    // Each virtual user played its own call, under the id of its row.
    const ids = new Set(theirs.got.map((g) => String((messageOf(g).call as { id: string }).id)));
    expect(ids).toEqual(new Set(artilleryScript(file).rows.map((r) => r.callId)));
  } finally {
    await ours.close();
    await theirs.close();
  }
}, 300_000);
