// `voice visitor` as a real process: files round-trip, output conventions, exit codes.
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCli } from './cli.test-support.js';

let cli: { file: string; dispose(): void };
let dir: string;
let file: string;

beforeAll(async () => {
  cli = await buildCli();
});
afterAll(() => cli?.dispose());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'voice-visitor-cli-'));
  file = join(dir, 'visitors.json');
  return () => rmSync(dir, { recursive: true, force: true });
});

const baseEnv = { VOICE_DEMO_URL: 'https://demo.example', VOICE_SUPABASE_URL: '', VOICE_SUPABASE_SERVICE_ROLE_KEY: '', VOICE_VISITORS_FILE: '', XDG_CONFIG_HOME: '/nonexistent', NO_COLOR: '1' };

function voice(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}) {
  return execa(process.execPath, [cli.file, 'visitor', ...args], {
    reject: false,
    cwd: options.cwd ?? dir,
    env: { ...baseEnv, ...options.env },
    input: options.input ?? '',
  });
}

const acme = { slug: 'acme', name: 'Acme Corp', system: 'Sell to Acme.', first_message: 'Hello Acme!' };
const globex = { slug: 'globex', name: 'Globex', system: 'Sell\tto\nGlobex.', first_message: 'Hi Globex!' };
const onDisk = () => JSON.parse(readFileSync(file, 'utf8')) as unknown;

describe('voice visitor on the local file', () => {
  it('creates from flags into ./visitors.json and prints the page URL on stdout', async () => {
    const r = await voice(['create', 'acme', '--name', acme.name, '--system', acme.system, '--first-message', acme.first_message]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('https://demo.example/acme');
    expect(r.stderr).toBe('Created visitor acme in ./visitors.json.');
    expect(onDisk()).toEqual([acme]);
  });

  it('round-trips create -f, list, get and update with --json as exact JSON', async () => {
    writeFileSync(join(dir, 'in.json'), JSON.stringify([acme, globex]));
    const created = await voice(['create', '-f', 'in.json', '--json', '--visitors', file]);
    expect(created.exitCode).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual([
      { ...acme, url: 'https://demo.example/acme' },
      { ...globex, url: 'https://demo.example/globex' },
    ]);
    expect(JSON.parse((await voice(['list', '--json'])).stdout)).toEqual([acme, globex]);
    expect(JSON.parse((await voice(['get', 'globex', '--json'])).stdout)).toEqual(globex);
    const updated = await voice(['update', 'acme', '--name', 'Acme Inc', '--json']);
    expect(JSON.parse(updated.stdout)).toEqual({ ...acme, name: 'Acme Inc', url: 'https://demo.example/acme' });
    const many = await voice(['update', '-f', '-'], { input: JSON.stringify([{ slug: 'globex', first_message: 'Yo' }]) });
    expect(many.exitCode).toBe(0);
    expect(onDisk()).toEqual([
      { ...acme, name: 'Acme Inc' },
      { ...globex, first_message: 'Yo' },
    ]);
  });

  it('prints tab-separated plain text when piped, one line per record', async () => {
    writeFileSync(file, JSON.stringify([acme, globex]));
    const list = await voice(['list']);
    expect(list.stdout).toBe('acme\tAcme Corp\thttps://demo.example/acme\nglobex\tGlobex\thttps://demo.example/globex');
    const get = await voice(['get', 'globex']);
    expect(get.stdout.split('\n')).toEqual(['slug\tglobex', 'name\tGlobex', 'system\tSell to Globex.', 'first_message\tHi Globex!', 'page\thttps://demo.example/globex']);
  });

  it('finds the file through VOICE_VISITORS_FILE', async () => {
    writeFileSync(file, JSON.stringify([acme]));
    const r = await voice(['list'], { cwd: tmpdir(), env: { VOICE_VISITORS_FILE: file } });
    expect(r.stdout).toBe('acme\tAcme Corp\thttps://demo.example/acme');
  });

  it('refuses bad slugs and missing fields with exit 2 and writes nothing', async () => {
    const bad = await voice(['create', 'Acme Corp', '--name', 'x', '--system', 'y', '--first-message', 'z']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Invalid slug "Acme Corp": a slug uses only lowercase letters, digits and hyphens.');
    const long = await voice(['get', 'a'.repeat(65)]);
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toContain('at most 64 characters');
    const missing = await voice(['create', 'acme', '--name', 'Acme']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('Missing --system, --first-message for acme.');
    expect(bad.stderr + long.stderr + missing.stderr).not.toMatch(/\n\s+at /);
    expect(() => readFileSync(file)).toThrow();
  });

  it('reports duplicates and unknown slugs with exit 1, file unchanged', async () => {
    writeFileSync(file, JSON.stringify([acme]));
    const before = readFileSync(file, 'utf8');
    const dup = await voice(['create', 'acme', '--name', 'A', '--system', 'B', '--first-message', 'C']);
    expect(dup.exitCode).toBe(1);
    expect(dup.stderr).toContain('Visitor acme already exists in ./visitors.json.');
    const none = await voice(['get', 'nope']);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('No visitor nope in ./visitors.json.');
    expect(none.stdout).toBe('');
    expect((await voice(['update', 'nope', '--name', 'x'])).exitCode).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('reports a corrupt file clearly and does not overwrite it', async () => {
    writeFileSync(file, '[{"slug": "acme", "name": ');
    for (const args of [['list'], ['create', 'globex', '--name', 'G', '--system', 'S', '--first-message', 'M'], ['delete', 'acme', '--yes']]) {
      const r = await voice(args);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('./visitors.json is not valid JSON');
      expect(r.stderr).toContain('left unchanged');
    }
    expect(readFileSync(file, 'utf8')).toBe('[{"slug": "acme", "name": ');
  });

  it('reads a hand-written file without prompt fields as `voice demo` does (empty prompts)', async () => {
    writeFileSync(file, '[{"slug":"acme","name":"Acme"}]');
    const r = await voice(['list', '--json']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ slug: 'acme', name: 'Acme', system: '', first_message: '' }]);
    const { LiveVisitorsFile } = await import('#core/visitors/file-store');
    expect(new LiveVisitorsFile(file).all()).toEqual(JSON.parse(r.stdout));
  });

  it('refuses to delete without a terminal unless --yes', async () => {
    writeFileSync(file, JSON.stringify([acme, globex]));
    const refused = await voice(['delete', 'acme']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(onDisk()).toEqual([acme, globex]);
    const done = await voice(['delete', 'acme', '--yes', '--json']);
    expect(done.exitCode).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({ deleted: ['acme'] });
    expect(onDisk()).toEqual([globex]);
  });
});

describe('voice visitor on the hosted table', () => {
  it('uses the hosted table when URL and service-role key are set, and maps a refused key to exit 4', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${String(req.headers.apikey)}`);
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Invalid API key' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await voice(['list'], { env: { VOICE_SUPABASE_URL: url, VOICE_SUPABASE_SERVICE_ROLE_KEY: 'wrong' } });
      expect(r.exitCode).toBe(4);
      expect(r.stderr).toContain('Invalid API key');
      expect(r.stderr).toContain('service-role key');
      expect(seen[0]).toMatch(/^GET \/rest\/v1\/visitors\?select=.* wrong$/);
      const local = await voice(['list', '--local', '--json'], { env: { VOICE_SUPABASE_URL: url, VOICE_SUPABASE_SERVICE_ROLE_KEY: 'wrong' } });
      expect(local.exitCode).toBe(0);
      expect(local.stdout).toBe('[]');
      expect(seen).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('warns and stays local when only the URL is set', async () => {
    const r = await voice(['list', '--json'], { env: { VOICE_SUPABASE_URL: 'http://127.0.0.1:9' } });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('VOICE_SUPABASE_SERVICE_ROLE_KEY is not');
  });
});
