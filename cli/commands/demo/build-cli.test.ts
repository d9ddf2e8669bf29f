// `voice demo build` as a real process through the CLI program: exit codes, messages, --json.
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCli, cliFile } from '../visitor/cli.test-support.js';

// `voice demo` with its `build` subcommand, registered here if cli/commands/demo/index.ts does not yet.
const entry = `
import { demoCommand } from ${JSON.stringify(cliFile('commands/demo/index.ts'))};
import { demoBuildCommand } from ${JSON.stringify(cliFile('commands/demo/build.ts'))};
import { main } from ${JSON.stringify(cliFile('program.ts'))};
const load = async () => {
  const demo = demoCommand();
  return demo.commands.some((c) => c.name() === 'build') ? demo : demo.addCommand(demoBuildCommand());
};
await main(process.argv.slice(2), [{ name: 'demo', description: 'demo page', load }]);
`;

let cli: { file: string; dispose(): void };
let dir: string;
beforeAll(async () => {
  cli = await buildCli(entry);
  dir = mkdtempSync(join(tmpdir(), 'voice-demo-build-cli-'));
});
afterAll(() => {
  cli?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const clean = {
  VOICE_SUPABASE_URL: '',
  VOICE_SUPABASE_ANON_KEY: '',
  VOICE_API_KEY: '',
  VOICE_WEBHOOK_URL: '',
  VOICE_PUBLIC_KEY: '',
  VOICE_ASSISTANT_ID: '',
  XDG_CONFIG_HOME: '/nonexistent',
  NO_COLOR: '1',
};
const voice = (args: string[], env: Record<string, string> = {}) => execa(process.execPath, [cli.file, 'demo', 'build', ...args], { cwd: dir, reject: false, env: { ...clean, ...env }, input: '' });

it('refuses to build without the hosted database, with exit 2 and what to set', async () => {
  const r = await voice([]);
  expect(r.exitCode).toBe(2);
  expect(r.stderr).toContain('VOICE_SUPABASE_URL');
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(existsSync(join(dir, 'dist'))).toBe(false);
});

it('refuses a service-role key as the page key', async () => {
  const serviceRole = `x.${Buffer.from(JSON.stringify({ role: 'service_role' })).toString('base64url')}.sig`;
  const r = await voice(['--supabase-url', 'https://abc.supabase.co', '--supabase-anon-key', serviceRole]);
  expect(r.exitCode).toBe(2);
  expect(r.stderr).toContain('service-role key');
  expect(r.stderr).not.toContain(serviceRole);
});

it('refuses a logo that is not an image file, with exit 2', async () => {
  const r = await voice(['--seller-logo', 'missing.png'], { VOICE_SUPABASE_URL: 'https://abc.supabase.co' });
  expect(r.exitCode).toBe(2);
  expect(r.stderr).toContain('Cannot read the logo file');
  expect(r.stderr).not.toMatch(/\n\s+at /);
});

it('builds into --out and prints the files as JSON, warning about what will not work', async () => {
  writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const r = await voice(['--out', 'site', '--json', '--seller-logo', 'logo.svg'], {
    VOICE_SUPABASE_URL: 'https://abc.supabase.co',
    VOICE_SUPABASE_ANON_KEY: 'anon-key-123456',
    VOICE_SELLER_NAME: 'Northwind',
    // A developer's shell may say development: the hosted page is a production build all the same.
    NODE_ENV: 'development',
  });
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.exitCode).toBe(0);
  const result = JSON.parse(r.stdout) as { outDir: string; files: string[] };
  expect(result.outDir).toBe(join(dir, 'site'));
  expect(result.files).toEqual(expect.arrayContaining(['index.html', '404.html', '_redirects', 'vercel.json']));
  expect(r.stderr).toContain('"Call Me" will fail on a static host');
  const html = readFileSync(join(dir, 'site', 'index.html'), 'utf8');
  expect(html).toContain('"supabaseAnonKey":"anon-key-123456"');
  // The seller, configured once: the page's settings and its tab icon.
  const logo = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`;
  expect(html).toContain(`"seller":{"name":"Northwind","logo":"${logo}"}`);
  expect(html).toContain(`<link rel="icon" href="${logo}" />`);
  // React's production build: no development JSX runtime, no development warnings.
  const scripts = result.files.filter((f) => f.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const f of scripts) expect(readFileSync(join(dir, 'site', f), 'utf8')).not.toMatch(/jsxDEV|react-dom\.development/);
}, 120_000);
