// `voice dev` suspended and resumed mid-call (a laptop lid, SIGSTOP/SIGCONT): the call's simulated
// clock does not jump, so the call ends as it would have, with the same timeline, and the emulator
// serves on. Runs the built CLI as a process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './build.js';

const H = { authorization: 'Bearer k', 'content-type': 'application/json' };
let child: ReturnType<typeof spawn>;
let url: string;

beforeAll(async () => {
  ensureBuilt();
  child = spawn(process.execPath, [join(ROOT, 'bin/voice.js'), 'dev', '--port', '0', '--speed', '20', '--quiet', '--no-inspector'], { stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim().split('\n')[0] as string);
    });
    child.on('exit', (code) => reject(new Error(`voice dev exited with ${code}`)));
  });
}, 120_000);
afterAll(() => {
  child.kill('SIGCONT');
  child.kill('SIGTERM');
});

interface Call {
  id: string;
  status: string;
  endedReason?: string;
  startedAt?: string;
  endedAt?: string;
  messages?: { role: string; time: number; message?: string }[];
}

async function get(id: string): Promise<Call> {
  return (await (await fetch(`${url}/call/${id}`, { headers: H })).json()) as Call;
}
async function place(): Promise<string> {
  const res = await fetch(`${url}/call`, {
    method: 'POST',
    headers: H,
    body: JSON.stringify({ customer: { number: '+14155550123' }, assistant: { name: 'S', firstMessage: 'Hello there, thanks for calling.' } }),
  });
  return ((await res.json()) as Call).id;
}
async function until(id: string, statuses: string[]): Promise<Call> {
  for (;;) {
    const call = await get(id);
    if (statuses.includes(call.status)) return call;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const length = (c: Call): number => Date.parse(c.endedAt as string) - Date.parse(c.startedAt as string);

it('a call that lives through a suspend ends as one that did not, with the same simulated timeline', async () => {
  const plain = await until(await place(), ['ended']);
  const id = await place();
  await until(id, ['in-progress', 'ended']);
  child.kill('SIGSTOP');
  // The suspension itself is real time passing while the process cannot run.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  child.kill('SIGCONT');
  const resumed = await until(id, ['ended']);
  expect(resumed.endedReason).toBe(plain.endedReason);
  expect(resumed.messages?.map((m) => [m.role, m.message])).toEqual(plain.messages?.map((m) => [m.role, m.message]));
  // The same simulated length, give or take the scheduling of one turn (not the 30 s a jump would add at 20x).
  expect(Math.abs(length(resumed) - length(plain))).toBeLessThan(1000);
  expect((await fetch(`${url}/assistant`, { headers: H })).status).toBe(200);
}, 120_000);
