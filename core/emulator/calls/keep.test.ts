// A week of calls: the emulator keeps the newest ended calls (with their logs) and lets the oldest
// go, from memory and from the data file, so both stay bounded.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startEmulator } from '../index.js';

const H = { authorization: 'Bearer k', 'content-type': 'application/json' };
const dir = mkdtempSync(join(tmpdir(), 'voice-keep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('keeps the newest ended calls and their logs, in memory and in the data file', async () => {
  const file = join(dir, 'data.json');
  const emu = await startEmulator({ speed: 2000, keepEndedCalls: 3, dataFile: file });
  try {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${emu.url}/call`, { method: 'POST', headers: H, body: JSON.stringify({ customer: { number: '+14155550123' }, assistant: { name: `K${i}`, firstMessage: 'Hello.' } }) });
      const { id } = (await res.json()) as { id: string };
      ids.push(id);
      await emu.waitForCall(id, 'ended');
    }
    const listed = (await (await fetch(`${emu.url}/call?limit=100`, { headers: H })).json()) as { id: string }[];
    expect(new Set(listed.map((c) => c.id))).toEqual(new Set(ids.slice(2)));
    expect((await fetch(`${emu.url}/call/${ids[0]}`, { headers: H })).status).toBe(404);
    const logs = (await (await fetch(`${emu.url}/log?limit=1000`, { headers: H })).json()) as { results: { callId?: string }[] };
    const logged = new Set(logs.results.map((l) => l.callId));
    expect(logged.has(ids[0])).toBe(false);
    expect(logged.has(ids[4])).toBe(true);
    await emu.close();
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { collections: { call: { id: string }[] } };
    expect(saved.collections.call.map((c) => c.id).sort()).toEqual(ids.slice(2).sort());
  } finally {
    await emu.close();
  }
}, 60_000);
