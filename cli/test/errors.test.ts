// Exit codes and messages: usage errors 2, API and network failures 1, Ctrl-C 130; delete asks
// on a terminal and refuses without one; no stack traces unless --verbose.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { captured, fileHarness, json } from './harness.js';
import { ROOT } from './build.js';
import { plain, voiceTty } from './tty.js';

const hf = fileHarness();

async function newAssistant(name = 'Temp'): Promise<string> {
  return json<{ id: string }>(await hf.current.voice(['assistant', 'create', '--set', `name=${name}`, '--json'])).id;
}

describe('usage errors exit 2', () => {
  it('suggests the closest command or action', async () => {
    const top = await hf.current.voice(['asistant', 'list']);
    expect(top.exitCode).toBe(2);
    expect(top.stderr).toContain('Did you mean assistant?');
    const action = await hf.current.voice(['assistant', 'lst']);
    expect(action.exitCode).toBe(2);
    expect(action.stderr).toContain('Did you mean list?');
    expect((await hf.current.voice(['assistant', 'list', '--limt', '3'])).stderr).toContain('--limit');
  });

  it('an unknown command with --help is still an unknown command (not the top help, exit 0)', async () => {
    const help = await hf.current.voice(['asistant', '--help']);
    expect(help.exitCode).toBe(2);
    expect(help.stderr).toContain("unknown command 'asistant'");
    expect(help.stdout).not.toContain('Usage: voice');
    const valued = await hf.current.voice(['--profile', 'work', '--help']);
    expect(valued.exitCode).toBe(0);
    expect(valued.stdout).toContain('Usage: voice');
  });

  it('names the file, line and column of invalid JSON', async () => {
    const file = join(hf.current.home, 'bad.json');
    writeFileSync(file, '{\n  "name": "x",\n  "model": }\n');
    const run = await hf.current.voice(['assistant', 'create', '-f', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`Invalid JSON in ${file} at line 3, column 12`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const stdin = await hf.current.voice(['assistant', 'create', '-f', '-'], { input: '{"a": tru}' });
    expect(stdin.exitCode).toBe(2);
    expect(stdin.stderr).toContain('Invalid JSON in stdin at line 1, column 7');
  });

  it('rejects bad flag values and missing files', async () => {
    expect((await hf.current.voice(['assistant', 'list', '--limit', 'ten'])).exitCode).toBe(2);
    expect((await hf.current.voice(['v2', 'call', 'list', '--sort', 'sideways'])).exitCode).toBe(2);
    expect((await hf.current.voice(['call', 'list', '--created-after', 'yesterday-ish'])).exitCode).toBe(2);
    const missing = await hf.current.voice(['file', 'create', './nope.pdf']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope.pdf');
    expect((await hf.current.voice(['assistant', 'create', '--set', 'novalue'])).exitCode).toBe(2);
  });
});

describe('API and network failures exit 1', () => {
  it('shows the status, the platform message and the request id', async () => {
    const run = await hf.current.voice(['assistant', 'get', 'does-not-exist']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/404/);
    expect(run.stderr).toMatch(/not found/i);
    expect(run.stderr).toMatch(/Request id: \S+/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('joins validation messages', async () => {
    const run = await hf.current.voice(['phone-number', 'create', '--set', 'name=x']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/400 .*provider[^\n]*; /);
  });

  it('refuses an empty model before sending: exit 2 naming the type, nothing created', async () => {
    const before = json<unknown[]>(await hf.current.voice(['assistant', 'list', '--json'])).length;
    const run = await hf.current.voice(['assistant', 'create', '--set', 'model=']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--set model=: model takes a JSON object.');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(json<unknown[]>(await hf.current.voice(['assistant', 'list', '--json']))).toHaveLength(before);
  });

  it('reports an unreachable API', async () => {
    const srv = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => srv.once('listening', r));
    const port = (srv.address() as AddressInfo).port;
    await new Promise((r) => srv.close(r));
    const run = await hf.current.voice(['assistant', 'list', '--api-url', `http://127.0.0.1:${port}`]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/connect|ECONNREFUSED/i);
  });

  it('logs requests with --verbose, the key masked', async () => {
    const run = await hf.current.voice(['assistant', 'list', '--verbose']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain(`> GET ${hf.current.emu.url}/assistant`);
    expect(run.stderr).toContain('> authorization: Bearer ****cdef');
    expect(run.stderr).toMatch(/< 200/);
  });
});

describe('destructive actions', () => {
  it('refuse without a terminal unless --yes, and delete nothing', async () => {
    const id = await newAssistant();
    const refused = await hf.current.voice(['assistant', 'delete', id]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await hf.current.voice(['assistant', 'get', id])).exitCode).toBe(0);
    const orgId = json<{ id: string }>(await hf.current.voice(['org', 'create', '--set', 'name=Acme', '--json'])).id;
    expect((await hf.current.voice(['org', 'leave', orgId])).stderr).toContain('--yes');
    expect((await hf.current.voice(['log', 'delete', '--call-id', 'c1'])).exitCode).toBe(2);
  });

  it('ask on a terminal: y deletes, anything else keeps', async () => {
    const id = await newAssistant();
    const kept = await voiceTty(hf.current.env, ['assistant', 'delete', id], { input: 'n\r' });
    // A refused confirmation exits 2 (as the exit-code table says), quietly: no error is reported.
    expect(kept.exitCode).toBe(2);
    expect(kept.stdout).toMatch(/Delete assistant .*Type y to confirm/);
    expect(plain(kept.stdout)).toContain('Cancelled: nothing was changed.');
    expect(plain(kept.stdout)).not.toContain('Error');
    expect((await hf.current.voice(['assistant', 'get', id])).exitCode).toBe(0);
    const gone = await voiceTty(hf.current.env, ['assistant', 'delete', id], { input: 'y\r' });
    expect(gone.exitCode, gone.stdout).toBe(0);
    expect((await hf.current.voice(['assistant', 'get', id])).exitCode).toBe(1);
  });

  it('--no-input refuses even on a terminal', async () => {
    const id = await newAssistant();
    const run = await voiceTty(hf.current.env, ['assistant', 'delete', id, '--no-input']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toContain('--yes');
    expect((await hf.current.voice(['assistant', 'get', id])).exitCode).toBe(0);
  });
});

describe('interrupts', () => {
  it('exit 130 on Ctrl-C', async () => {
    let seen!: () => void;
    const arrived = new Promise<void>((r) => (seen = r));
    const hang = createServer(() => seen()).listen(0, '127.0.0.1');
    await new Promise((r) => hang.once('listening', r));
    const url = `http://127.0.0.1:${(hang.address() as AddressInfo).port}`;
    const child = execa(process.execPath, [join(ROOT, 'bin', 'voice.js'), 'assistant', 'list'], { env: { ...hf.current.env, VOICE_API_URL: url }, extendEnv: false, reject: false });
    await arrived;
    child.kill('SIGINT');
    const r = await child;
    captured.push(String(r.stdout), String(r.stderr));
    expect(r.exitCode).toBe(130);
    hang.closeAllConnections();
    hang.close();
  });
});
