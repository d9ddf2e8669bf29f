// `voice load` as a real process against loopback servers: the table and JSON match what the
// server received, a missed deadline fails the run, the report page is self-contained, signed
// deliveries verify, faults are made, the Artillery export holds the same traffic.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyServerMessage } from 'voice-agent-core/verify';
import type { AuthenticationPlan } from 'voice-agent-core/verify';
import { devServer, messageOf } from './dev-server.js';
import type { Answer, Got } from './dev-server.js';
import { KEY, fileHarness, json } from './harness.js';
import { plain, voiceTty } from './tty.js';
import { artilleryScript } from './artillery-script.js';

const h = fileHarness();

interface Out {
  ok: boolean;
  reasons: string[];
  deliveries: number;
  misses: number;
  errors: number;
  faults: Record<string, number>;
  calls: { started: number; ended: number; endedReasons: Record<string, number> };
  types: { type: string; count: number; p50: number; misses: number; errors: Record<string, number> }[];
}

function answer(slow: Record<string, number> = {}): (g: Got) => Answer {
  return (g) => {
    const m = messageOf(g);
    const delayMs = slow[String(m.type)] ?? 0;
    if (m.type === 'assistant-request') return { body: { assistantId: 'a1' }, delayMs };
    if (m.type === 'tool-calls') return { body: { results: (m.toolCallList as { id: string }[]).map((c) => ({ toolCallId: c.id, result: 'Booked.' })) }, delayMs };
    return { body: {}, delayMs };
  };
}

const countBy = (got: Got[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const g of got) {
    const type = String(messageOf(g).type);
    out[type] = (out[type] ?? 0) + 1;
  }
  return out;
};
const countsOf = (o: Out): Record<string, number> => Object.fromEntries(o.types.map((t) => [t.type, t.count]));

describe('voice load', () => {
  it('runs the calls and reports per message type what the server received', async () => {
    const server = await devServer(answer());
    try {
      const run = await h.current.voice(['load', '--server', `${server.url}/hook`, '--calls', '6', '--speed', '200', '--json'], { timeout: 60_000 });
      expect(run.exitCode, run.stderr).toBe(0);
      const o = json<Out>(run);
      expect(o.ok).toBe(true);
      expect(o.calls).toMatchObject({ started: 6, ended: 6, endedReasons: { 'customer-ended-call': 6 } });
      expect(o.deliveries).toBe(server.got.length);
      expect(countsOf(o)).toEqual(countBy(server.got));
      expect(countsOf(o)['assistant-request']).toBe(3);
      expect(server.got.every((g) => g.path === '/hook')).toBe(true);
    } finally {
      await server.close();
    }
  }, 90_000);

  it('keeps at most --concurrent calls going at once, the next starting as one ends', async () => {
    const server = await devServer(answer());
    try {
      const run = await h.current.voice(['load', '--server', `${server.url}/hook`, '--concurrent', '3', '--calls', '9', '--speed', '200', '--json'], { timeout: 60_000 });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(json<Out>(run).calls).toMatchObject({ started: 9, ended: 9 });
      // A call is open from its first message to its end-of-call report, as the server saw them.
      const open = new Set<string>();
      let most = 0;
      for (const g of server.got) {
        const m = messageOf(g);
        const id = String((m.call as { id: string }).id);
        open.add(id);
        most = Math.max(most, open.size);
        if (m.type === 'end-of-call-report') open.delete(id);
      }
      expect(most).toBe(3);
      expect(open.size).toBe(0);
    } finally {
      await server.close();
    }
  }, 90_000);

  it('exits 1 when a deadline is missed, and writes a self-contained report page', async () => {
    const server = await devServer(answer({ 'end-of-call-report': 3000 }));
    const report = join(h.current.home, 'load.html');
    try {
      const run = await h.current.voice(['load', '--server', server.url, '--calls', '2', '--speed', '200', '--timeout', '1', '--report', report], { timeout: 60_000 });
      expect(run.exitCode).toBe(1);
      expect(run.stdout).toMatch(/end-of-call-report\s+2\s.*timeout×2\s+2\s+1 s/);
      expect(run.stderr).toContain('2 deadlines missed');
      const page = readFileSync(report, 'utf8');
      expect(page).toContain('<svg');
      expect(page).toContain('end-of-call-report');
      expect(page).not.toMatch(/\s(src|href)=/);
    } finally {
      await server.close();
    }
  }, 90_000);

  it('signs every delivery with the credential the server names, and injects the faults asked for', async () => {
    const plan: AuthenticationPlan = { type: 'hmac', secretKey: 'hmac-secret', algorithm: 'sha256', signatureEncoding: 'hex', timestampHeader: 'x-vapi-timestamp' };
    const res = await fetch(`${h.current.emu.url}/credential`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'webhook', authenticationPlan: plan }),
    });
    const { id } = (await res.json()) as { id: string };
    const server = await devServer(answer());
    try {
      const run = await h.current.voice(['load', '--server', server.url, '--calls', '4', '--speed', '200', '--credential', id, '--fault', 'duplicate,slow', '--json'], { timeout: 60_000 });
      expect(run.exitCode, run.stderr).toBe(0);
      const o = json<Out>(run);
      const verdicts = await Promise.all(server.got.map((g) => verifyServerMessage({ body: g.raw, headers: g.headers as Record<string, string>, plan })));
      expect(verdicts.every((v) => v.valid)).toBe(true);
      // Every tenth delivery is sent twice; the server answered both.
      expect(o.faults.duplicate).toBe(Math.floor((o.deliveries - o.faults.duplicate!) / 10));
      expect(o.faults.slow).toBeGreaterThan(0);
      expect(server.got.length).toBe(o.deliveries);
      expect(run.stdout + run.stderr).not.toContain('hmac-secret');
    } finally {
      await server.close();
    }
  }, 90_000);

  it('exports the same traffic as an Artillery script and its call list', async () => {
    const server = await devServer(answer());
    const file = join(h.current.home, 'load.yml');
    try {
      const args = ['--server', `${server.url}/hook`, '--calls', '10', '--inbound', '0.3', '--speed', '100', '--rate', '5'];
      const exported = await h.current.voice(['load', '--export', 'artillery', file, ...args], { timeout: 60_000 });
      expect(exported.exitCode, exported.stderr).toBe(0);
      expect(exported.stderr).toContain('load.calls.csv');
      expect(server.got).toHaveLength(0);
      const run = await h.current.voice(['load', ...args, '--json'], { timeout: 60_000 });
      expect(run.exitCode, run.stderr).toBe(0);
      const script = artilleryScript(file);
      expect(script.target).toBe(server.url);
      expect(script.arrivals).toBe(10);
      expect(script.kinds).toEqual({ inbound: 3, outbound: 7 });
      expect(script.perType).toEqual(countsOf(json<Out>(run)));
      expect(script.urls).toEqual(['/hook']);
      // The machines that run an export may resolve names this one cannot.
      const elsewhere = await h.current.voice(['load', '--export', 'artillery', join(h.current.home, 'internal.yml'), '--server', 'http://load-target.invalid/hook', '--calls', '2']);
      expect(elsewhere.exitCode, elsewhere.stderr).toBe(0);
    } finally {
      await server.close();
    }
  }, 90_000);

  it('shows a live line on a terminal while the calls run, then the table', async () => {
    const server = await devServer(answer({ 'status-update': 30 }));
    try {
      const run = await voiceTty(h.current.env, ['load', '--server', server.url, '--calls', '6', '--rate', '3', '--speed', '20']);
      expect(run.exitCode, run.stdout).toBe(0);
      const text = plain(run.stdout);
      expect(text).toMatch(/calls running [1-6] {2}done \d+ {2}deliveries \d+ \(\d+\/s\) {2}p95 [\d.]+ ms {2}deadline misses 0/);
      expect(text).toMatch(/status-update\s+\d+/);
      expect(text).toContain('PASS');
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refuses bad input with a clear message and exit 2', async () => {
    for (const [args, text] of [
      [['load'], 'needs a server'],
      [['load', '--server', 'http://127.0.0.1:9', '--calls', '0'], 'whole number'],
      [['load', '--server', 'http://127.0.0.1:9', '--fault', 'flood'], 'unknown fault "flood"'],
      [['load', '--server', 'http://127.0.0.1:9', '--export', 'k6', 'x.js'], 'unknown format "k6"'],
      [['load', '--server', 'http://127.0.0.1:9', '--ramp', '5'], 'a ramp needs a rate'],
      [['load', '--assistant', 'missing.yml'], 'no such file'],
      [['load', '--server', 'notaurl'], '--server: "notaurl" is not a URL'],
      [['load', '--server', 'ftp://127.0.0.1:9/hook'], '--server: use an http or https URL'],
      [['load', '--server', 'http://no-such-host.invalid/hook'], '--server: no host named "no-such-host.invalid" was found'],
      [['load', '--server', 'notaurl', '--export', 'artillery', 'x.yml'], '--server: "notaurl" is not a URL'],
      [['load', '--server', 'http://127.0.0.1:9', '--max-errors', '200'], "option '--max-errors <percent>' argument '200' is invalid. expected a percentage from 0 to 100"],
      [['load', '--server', 'http://127.0.0.1:9', '--max-errors', '-1'], '--max-errors'],
      [['load', '--server', 'http://127.0.0.1:9', '--inbound', '1.5'], "'--inbound <share>' argument '1.5' is invalid. expected a share from 0 to 1"],
      [['load', '--server', 'http://127.0.0.1:9', '--calls', '2.5'], '--calls'],
      [['load', '--server', 'http://127.0.0.1:9', '--calls', '5000000'], 'expected a whole number from 1 to 1000000'],
      [['load', '--server', 'http://127.0.0.1:9', '--rate', '0'], '--rate'],
      [['load', '--server', 'http://127.0.0.1:9', '--rate', 'fast'], '--rate'],
      [['load', '--server', 'http://127.0.0.1:9', '--ramp', '-2', '--rate', '1'], '--ramp'],
      [['load', '--server', 'http://127.0.0.1:9', '--duration', '0'], '--duration'],
      [['load', '--server', 'http://127.0.0.1:9', '--speed', '0'], '--speed'],
      [['load', '--server', 'http://127.0.0.1:9', '--speed', ''], '--speed'],
      [['load', '--server', 'http://127.0.0.1:9', '--timeout', '99999'], '--timeout'],
      [['load', '--server', 'http://127.0.0.1:9', '--concurrent', '0'], '--concurrent'],
      [['load', '--server', 'http://127.0.0.1:9', '--concurrent', '5'], 'until --calls are placed or --duration is up'],
      [['load', '--server', 'http://127.0.0.1:9', '--concurrent', '5', '--calls', '20', '--fault', 'burst'], 'use one or the other'],
      [['load', '--server', 'http://127.0.0.1:9', '--concurrent', '5', '--duration', '9', '--export', 'artillery', 'x.yml'], 'cannot hold lines'],
    ] as const) {
      const run = await h.current.voice(args);
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(text);
      expect(run.stderr).not.toContain('    at ');
    }
  }, 120_000);

  it('checks where --report and --export write before any call starts, and makes a missing folder', async () => {
    const server = await devServer(answer());
    try {
      const blocker = join(h.current.home, 'not-a-folder');
      writeFileSync(blocker, 'x');
      for (const args of [
        ['--report', join(blocker, 'load.html')],
        ['--export', 'artillery', join(blocker, 'load.yml')],
      ]) {
        const run = await h.current.voice(['load', '--server', server.url, '--calls', '2', '--speed', '200', ...args]);
        expect(run.exitCode, args.join(' ')).toBe(2);
        expect(run.stderr).toContain(`${join(blocker, args.at(-1)?.endsWith('.html') ? 'load.html' : 'load.yml')}: cannot write there`);
        expect(run.stderr).not.toContain('    at ');
      }
      expect(server.got).toHaveLength(0);
      const report = join(h.current.home, 'reports', 'nightly', 'load.html');
      const run = await h.current.voice(['load', '--server', server.url, '--calls', '2', '--speed', '200', '--report', report], { timeout: 60_000 });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(readFileSync(report, 'utf8')).toContain('<svg');
    } finally {
      await server.close();
    }
  }, 60_000);
});
