// The published operations beyond the spec through the real CLI: file answers (recordings) to
// --out or a pipe and never onto a terminal, an operation with a body and a query, and the
// provider resources (CRUD without bodies, so crud.test.ts leaves them out).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from './build.js';
import { fileHarness, json } from './harness.js';
import { voiceTty } from './tty.js';

const hf = fileHarness({ seed: true });
const ENDED_CALL = 'cecbff8e-7abf-5105-9a43-49b766f68963';

/** Checks a WAV file: RIFF/WAVE header, 16-bit PCM, and a data chunk as long as the header says. */
function expectWav(b: Buffer, channels: number): void {
  expect(b.toString('ascii', 0, 4)).toBe('RIFF');
  expect(b.readUInt32LE(4)).toBe(b.length - 8);
  expect(b.toString('ascii', 8, 16)).toBe('WAVEfmt ');
  expect(b.readUInt16LE(20)).toBe(1);
  expect(b.readUInt16LE(22)).toBe(channels);
  expect(b.readUInt16LE(34)).toBe(16);
  expect(b.toString('ascii', 36, 40)).toBe('data');
  expect(b.readUInt32LE(40)).toBe(b.length - 44);
  expect(b.length).toBeGreaterThan(44 + 8000);
}

describe('recordings through the CLI', () => {
  it('saves a recording with --out as a valid WAV, and says where on stderr', async () => {
    const file = join(hf.current.home, 'call.wav');
    const run = await hf.current.voice(['call', 'recording', 'get', ENDED_CALL, '--out', file]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`bytes to ${file}`);
    expectWav(readFileSync(file), 1);
    const stereo = await hf.current.voice(['call', 'recording', 'stereo', ENDED_CALL, '-o', file]);
    expect(stereo.exitCode, stereo.stderr).toBe(0);
    expectWav(readFileSync(file), 2);
  });

  it('writes the bytes to stdout when piped', async () => {
    const r = await execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), 'call', 'recording', 'customer', ENDED_CALL], { env: hf.current.env, extendEnv: false, encoding: 'buffer', reject: false });
    expect(r.exitCode, Buffer.from(r.stderr).toString()).toBe(0);
    expectWav(Buffer.from(r.stdout), 1);
  });

  it('refuses to print a recording on a terminal and names --out', async () => {
    const run = await voiceTty(hf.current.env, ['call', 'recording', 'get', ENDED_CALL]);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toContain('--out FILE');
    expect(run.stdout).not.toContain('RIFF');
  });

  it('answers 404 (exit 1) before the call has ended, and fails clearly on an unwritable --out', async () => {
    // A number that never answers rings for 30 s on the harness's real-time clock: the call is still
    // ringing when the next command asks, however slow the machine is to start it. (It needs an
    // assistant: without one the call ends at once, as on the platform.)
    const created = await hf.current.voice(['call', 'create', '--set', 'customer.number=+15550100001', '--set', 'assistant.name=Ringer', '--json']);
    const id = json<{ id: string }>(created).id;
    const early = await hf.current.voice(['call', 'recording', 'get', id, '--out', join(hf.current.home, 'early.wav')]);
    expect(early.exitCode, early.stderr).toBe(1);
    expect(early.stderr).toContain('has not ended');
    const bad = await hf.current.voice(['call', 'recording', 'get', ENDED_CALL, '--out', join(hf.current.home, 'no', 'such', 'x.wav')]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('its folder does not exist');
    expect(bad.stderr).not.toContain('    at ');
  });
});

describe('other published operations through the CLI', () => {
  it('sends the body and the query of a structured-output update', async () => {
    const made = await hf.current.voice(['structured-output', 'create', '-f', join(ROOT, 'fixtures', 'bodies', 'structured-output.json'), '--json']);
    const id = json<{ id: string }>(made).id;
    const run = await hf.current.voice(['structured-output', 'update', id, '--set', 'name=renamed', '--schema-override', 'true', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(json<{ name: string }>(run).name).toBe('renamed');
  });

  it('reads a YAML body file, and names the line of a YAML mistake', async () => {
    const good = join(hf.current.home, 'suite.yml');
    writeFileSync(good, 'name: Front desk regression\nsimulationIds:\n  - 00000000-0000-4000-8000-000000000004\n');
    const run = await hf.current.voice(['eval', 'simulation', 'suite', 'create', '-f', good, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(json(run)).toMatchObject({ name: 'Front desk regression', simulationIds: ['00000000-0000-4000-8000-000000000004'], targetAssignments: [] });
    const bad = join(hf.current.home, 'bad.yaml');
    writeFileSync(bad, 'name: x\nsimulationIds: [a, b\n');
    const refused = await hf.current.voice(['eval', 'simulation', 'suite', 'create', '-f', bad]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/Invalid YAML in .*bad\.yaml at line \d+, column \d+/);
  });

  it('provider resources: create, list, get, update, delete', async () => {
    const words = ['provider', 'resource'];
    const where = ['cartesia', 'pronunciation-dictionary'];
    const made = await hf.current.voice([...words, 'create', ...where, '--json']);
    expect(made.exitCode, made.stderr).toBe(0);
    const id = json<{ id: string }>(made).id;
    const listed = await hf.current.voice([...words, 'list', ...where, '--json']);
    expect(json<{ results: Array<{ id: string }> }>(listed).results.map((r) => r.id)).toEqual([id]);
    expect(json<{ id: string }>(await hf.current.voice([...words, 'get', ...where, id, '--json'])).id).toBe(id);
    expect((await hf.current.voice([...words, 'update', ...where, id, '--json'])).exitCode).toBe(0);
    expect((await hf.current.voice([...words, 'delete', ...where, id, '--yes'])).exitCode).toBe(0);
    const gone = await hf.current.voice([...words, 'get', ...where, id]);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toMatch(/404/);
  });

  it('runs a simulation suite from a file: without a model it ends at once, every item failed saying why', async () => {
    const suite = await hf.current.voice(['eval', 'simulation', 'suite', 'create', '-f', join(ROOT, 'fixtures', 'bodies', 'eval-simulation-suite.json'), '--json']);
    expect(suite.exitCode, suite.stderr).toBe(0);
    const started = await hf.current.voice(['eval', 'simulation', 'run', 'create', '-f', join(ROOT, 'fixtures', 'bodies', 'eval-simulation-run.json'), '--json']);
    expect(started.exitCode, started.stderr).toBe(0);
    const run = json<{ id: string; status: string; itemCounts: { total: number; failed: number; passed: number } }>(started);
    expect(run.status).toBe('ended');
    expect(run.itemCounts.passed).toBe(0);
    expect(run.itemCounts.failed).toBe(run.itemCounts.total);
    const items = json<{ status: string; failureReason: string }[]>(await hf.current.voice(['eval', 'simulation', 'run', 'item', 'list', run.id, '--json']));
    expect(items.length).toBe(run.itemCounts.total);
    for (const item of items) expect(item).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('No model is configured') });
  });
});
