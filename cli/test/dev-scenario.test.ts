// `voice dev --scenario FILE` through the built CLI (bin/voice.js runs dist/): the bundled YAML
// reader loads the repository's sample scenario and a call follows it.
import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '#core/emulator/calls/testing';
import { ROOT, ensureBuilt } from './build.js';
import { firstLine } from './harness.js';

const home = mkdtempSync(join(tmpdir(), 'voice-dev-scenario-'));
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
const auth = { authorization: 'Bearer any-key', 'content-type': 'application/json' };

beforeAll(() => ensureBuilt());
afterAll(() => rmSync(home, { recursive: true, force: true }));

it('runs a call from fixtures/scenarios/squad-handoff.yaml', async () => {
  const proc = execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), 'dev', '--port', '0', '--quiet', '--speed', '100', '--scenario', 'fixtures/scenarios/squad-handoff.yaml'], {
    env,
    extendEnv: false,
    reject: false,
    cwd: ROOT,
  });
  try {
    const url = await firstLine(proc);
    const call = (await (
      await fetch(`${url}/call`, { method: 'POST', headers: auth, body: JSON.stringify({ assistant: { name: 'Reception', firstMessage: 'Hello, reception.' }, customer: { number: '+14155550124' } }) })
    ).json()) as { id: string };
    const ended = await until(async () => {
      const now = (await (await fetch(`${url}/call/${call.id}`, { headers: auth })).json()) as { status: string };
      return now.status === 'ended' ? now : undefined;
    }, 20_000);
    // The customer's first line is the scenario's.
    expect(JSON.stringify(ended)).toContain('I have a question about my bill.');
  } finally {
    proc.kill('SIGINT');
    const done = await proc;
    expect(String(done.stderr)).not.toContain('is not valid YAML');
  }
});
