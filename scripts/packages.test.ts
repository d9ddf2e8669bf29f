// Both packages as their users get them: packed (file lists checked), published on a loopback
// registry that serves everything else from the local npm cache, and installed into fresh
// projects in a temporary folder: a Node backend using only the REST client (and the emulator),
// TypeScript projects (nodenext, bundler), a Vite React app that also loads every face of core in
// Node (import and require), and the CLI installed globally, from the registry and from its
// tarball file. No install prints a warning. README.md's install blocks run here: the registry
// way (`npm install voice-agent-core`, `npm install --global voice-agent-cli`, `npx voice-agent-cli`)
// against the loopback registry, and the tarball way (the same `npm pack`, its tarballs installed).
import { build } from 'esbuild';
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorBuild, OPTIONAL_NATIVE } from './build-config.js';
import { npmEnvFor, startLocalRegistry, type LocalRegistry } from './local-registry.js';
import { coreFilesThePageReaches, firstUrl, installed, packageOf, packagesImported, size, warnings } from './package-checks.js';
import { PROJECTS, type ProjectFiles } from './packages.fixtures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
type Manifest = { name: string; version: string; dependencies: Record<string, string>; scripts: Record<string, string> };
const rootPkg = readJson<Manifest>(join(ROOT, 'package.json'));
const corePkg = readJson<Manifest & { peerDependencies: Record<string, string>; exports: Record<string, unknown> }>(join(ROOT, 'core', 'package.json'));
const lock = readJson<{ packages: Record<string, { version: string }> }>(join(ROOT, 'package-lock.json'));
/** The version the repository's lock holds, so the test projects install what the cache has. */
const locked = (name: string): string => `${name}@${lock.packages[`node_modules/${name}`]?.version ?? 'missing-from-lock'}`;

// npm run by `npm test` passes its settings down as npm_* variables; the projects get none of them.
const env: Record<string, string | undefined> = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const MB = 1024 * 1024;

let tmp: string;
let registry: LocalRegistry;
const packs = new Map<string, { filename: string; files: string[] }>();

/** npm against the loopback registry only, with a throwaway cache and no user settings. */
async function npm(args: string[], cwd: string, loglevel = 'error') {
  const run = execa('npm', [...args, '--no-audit', '--no-fund', '--no-update-notifier', `--loglevel=${loglevel}`], { cwd, env: npmEnvFor(registry.url, tmp), timeout: 240_000 });
  try {
    return await run;
  } catch (error) {
    // Say which packages the local npm cache lacked, if any.
    if (registry.missing.length > 0) throw new Error(`not in the local npm cache: ${registry.missing.join(', ')}`, { cause: error });
    throw error;
  }
}

/** Removes `dir` in a detached process that outlives this one. */
function removeInBackground(dir: string): void {
  const code = `require('node:fs').rmSync(${JSON.stringify(dir)}, { recursive: true, force: true, maxRetries: 3 })`;
  spawn(process.execPath, ['-e', code], { detached: true, stdio: 'ignore' }).unref();
}

function project(name: string, files: ProjectFiles): string {
  const dir = join(tmp, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** Installs the CLI globally into its own prefix; resolves to the prefix once npm printed no warning. */
async function globalInstall(spec: string, prefix: string): Promise<string> {
  const run = await npm(['install', '--global', '--prefix', prefix, spec], tmp, 'warn');
  expect(warnings(run)).toEqual([]);
  return prefix;
}

let installs: { node: Promise<string>; web: Promise<string>; global: Promise<string>; fromFile: Promise<string> };

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'voice-packages-'));
  writeFileSync(join(tmp, 'npmrc'), '');
  writeFileSync(join(tmp, 'global-npmrc'), '');
  // The build is fresh (vitest's global setup); prepack would only rebuild it. The CLI and core are
  // the packages installed here (the audio package has its own tests).
  const packed = await execa('npm', ['pack', '--json', '--ignore-scripts', '--workspace', 'core', '--include-workspace-root', '--pack-destination', tmp], { cwd: ROOT, env });
  for (const p of JSON.parse(packed.stdout) as { name: string; filename: string; files: { path: string }[] }[]) {
    packs.set(p.name, { filename: join(tmp, p.filename), files: p.files.map((f) => f.path) });
  }
  // npm (npm test, npx) names its cache to what it runs; asking npm costs a launch.
  const cacheDir = process.env.npm_config_cache || (await execa('npm', ['config', 'get', 'cache'], { env: process.env })).stdout.trim();
  registry = await startLocalRegistry({
    lockfile: join(ROOT, 'package-lock.json'),
    cacheDir,
    packages: [
      { manifest: corePkg, tarball: packs.get(corePkg.name)?.filename ?? '' },
      { manifest: rootPkg, tarball: packs.get(rootPkg.name)?.filename ?? '' },
    ],
  });
  // The three installs run side by side; each test waits for its own.
  const nodeDir = project('node-app', PROJECTS.node);
  const webDir = project('web-app', PROJECTS.web);
  installs = {
    node: npm(['install', `${corePkg.name}@${corePkg.version}`], nodeDir).then(() => nodeDir),
    web: npm(
      [
        'install',
        `${corePkg.name}@${corePkg.version}`,
        locked('@daily-co/daily-js'),
        locked('react'),
        locked('react-dom'),
        locked('vite'),
        locked('@vitejs/plugin-react'),
        locked('typescript'),
        locked('@types/node'),
      ],
      webDir,
    ).then(() => webDir),
    global: globalInstall(`${rootPkg.name}@${rootPkg.version}`, join(tmp, 'global')),
    // The README's way until the CLI is on the registry: the tarball file itself.
    fromFile: globalInstall(packs.get(rootPkg.name)?.filename ?? '', join(tmp, 'global-file')),
  };
  for (const p of Object.values(installs)) p.catch(() => undefined);
}, 120_000);

afterAll(async () => {
  // Installs a filtered run (-t) did not wait for finish before their registry and folder go.
  if (installs) await Promise.allSettled(Object.values(installs));
  await registry?.close();
  // Tens of thousands of installed files: a process of their own removes them, so the suite goes
  // on meanwhile (removing them here took minutes of this file's time on a busy machine).
  if (tmp && !process.env.VOICE_KEEP_TMP) removeInBackground(tmp);
}, 360_000);

describe('packages', () => {
  it('pack only what runs: no tests, benchmarks, e2e or fixtures the runtime does not read', async () => {
    const core = packs.get(corePkg.name)?.files ?? [];
    const root = packs.get(rootPkg.name)?.files ?? [];
    for (const file of [...core, ...root]) expect(file).not.toMatch(/\.test\.|test-support|(^|\/)(bench|e2e|test|scripts|supabase)\/|^fixtures\/(?!visitors\.json$)|testing\.ts$|scripted-transport/);
    // Every file core's exports name is in its tarball.
    const named = JSON.stringify(corePkg.exports).match(/\.\/dist\/[^"]+/g) ?? [];
    expect(named.length).toBeGreaterThan(6);
    for (const file of named) expect(core).toContain(file.slice(2));
    expect(core.some((f) => f.endsWith('.js.map'))).toBe(true);
    for (const file of ['bin/voice.js', 'dist/cli/main.js', 'dist/inspector/index.html', 'web/index.html', 'core/package.json', 'fixtures/visitors.json']) expect(root).toContain(file);
    // `voice demo` serves web/ with Vite from the installed package, core's modules from their
    // sources (web/vite/core-source.ts): every core source the page reaches must be in the root's
    // tarball, and no other core file (the CLI's own use of core is bundled in dist/cli).
    const reached = await coreFilesThePageReaches(ROOT, join(tmp, 'page'));
    expect(reached.length).toBeGreaterThan(3);
    for (const file of reached) expect(root).toContain(file);
    // Besides those, only the rest of the page's own folders (type-only modules, its index, READMEs).
    expect(root.filter((f) => f.startsWith('core/') && f !== 'core/package.json' && !reached.includes(f) && !/^core\/(webcall|react)\/|README\.md$/.test(f))).toEqual([]);
  });

  // The CLI bundles core (dist/cli); core is not also installed as its dependency.
  it('the CLI package does not depend on voice-agent-core: core is in its bundle only', () => {
    expect(Object.keys(rootPkg.dependencies)).not.toContain(corePkg.name);
    const root = packs.get(rootPkg.name)?.files ?? [];
    expect(root.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/cli/') && !f.startsWith('dist/inspector/'))).toEqual([]);
  });

  // npm never runs `prepare` for a package from a registry, but warns about it for a tarball file
  // (whose `scripts/` would not be there anyway): no package may name an install script.
  it('no package has an install script', () => {
    const workspaces = (rootPkg as Manifest & { workspaces: string[] }).workspaces.map((dir) => readJson<Manifest>(join(ROOT, dir, 'package.json')));
    for (const pkg of [rootPkg, ...workspaces]) expect(Object.keys(pkg.scripts).filter((name) => /^(pre|post)?(install|prepare)$/.test(name))).toEqual([]);
  });

  // Libraries the emulator uses are bundled in (and listed in core's devDependencies), never left
  // as imports that core's users would have to install. esbuild's metafile lists the imports the
  // bundle really keeps (import statements, dynamic imports, require calls), not text that merely
  // looks like one: ajv's generated code carries strings such as `require("ajv/dist/runtime/equal")`.
  it("core's emulator imports only Node built-ins and core's own dependencies", async () => {
    const result = await build({ ...emulatorBuild(ROOT, corePkg), write: false, logLevel: 'error' });
    const output = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('emulator.js'))?.[1];
    const specifiers = (output?.imports ?? []).filter((i) => i.external).map((i) => i.path);
    expect(specifiers).toContain('node:http');
    const allowed = new Set([...Object.keys(corePkg.dependencies), ...Object.keys(corePkg.peerDependencies), ...OPTIONAL_NATIVE]);
    const unexpected = specifiers.filter((s) => !isBuiltin(s) && !allowed.has(packageOf(s)));
    expect(unexpected).toEqual([]);
    // The bundle on disk is this build's (the freshness check rebuilt it), with the same imports kept.
    const code = readFileSync(join(ROOT, 'core', 'dist', 'emulator.js'), 'utf8');
    for (const s of new Set(specifiers)) expect(code).toContain(JSON.stringify(s));
    expect(Object.keys(corePkg.dependencies)).toEqual(['undici']);
  });

  // core's own manifest names every package core's sources import: what its users need at run
  // time in dependencies or (optional) peerDependencies, what its build bundles in devDependencies.
  it("core's package.json names every package core's sources import", () => {
    const manifest = readJson<{ devDependencies?: Record<string, string> }>(join(ROOT, 'core', 'package.json'));
    const named = new Set([...Object.keys(corePkg.dependencies), ...Object.keys(corePkg.peerDependencies), ...Object.keys(manifest.devDependencies ?? {})]);
    const used = packagesImported(join(ROOT, 'core'), ROOT);
    expect(used.has('undici')).toBe(true);
    expect([...used].filter(([name]) => !named.has(name)).map(([name, file]) => `${name} (${file})`)).toEqual([]);
  });

  it('a Node ESM backend using the REST client installs under 10 MB, without the CLI or the web stack, and works', async () => {
    const dir = await installs.node;
    const modules = installed(dir);
    expect(modules).toContain(corePkg.name);
    for (const heavy of ['vite', 'ink', 'react', 'react-dom', '@daily-co/daily-js', 'commander']) expect(modules).not.toContain(heavy);
    expect(modules.filter((m) => m.startsWith('@sentry/'))).toEqual([]);
    expect(size(join(dir, 'node_modules'))).toBeLessThanOrEqual(10 * MB);
    // The emulator export and the client, talking to each other on loopback.
    const run = await execa(process.execPath, ['main.js'], { cwd: dir, env });
    expect(JSON.parse(run.stdout)).toEqual({ name: 'Front desk', listed: 1, notFound: 404 });
  }, 240_000);

  // Every face core exports loads in Node from the installed package, as an ES module and through
  // require() (core ships no CommonJS build: Node 20.19 and newer require ES modules), with no
  // warning, and exports at least the names the table in core's README lists for it.
  it('every face of voice-agent-core loads with import and with require(), exporting what its README names', async () => {
    const dir = await installs.web;
    const run = (file: string) => execa(process.execPath, [file], { cwd: dir, env });
    const [esm, cjs] = await Promise.all([run('faces.mjs'), run('faces.cjs')]);
    expect(esm.stderr).toBe('');
    expect(cjs.stderr).toBe('');
    const names = JSON.parse(esm.stdout) as Record<string, string[]>;
    expect(Object.keys(names).sort()).toEqual(['client', 'emulator', 'model', 'react', 'verify', 'webcall']);
    expect(JSON.parse(cjs.stdout)).toEqual(names);
    const readme = readFileSync(join(dir, 'node_modules', corePkg.name, 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `voice-agent-core\/([\w-]+)`\s*\|([^|]*)\|/gm)].map((m) => ({
      face: m[1] as string,
      documented: [...(m[2] as string).matchAll(/`(\w+)`/g)].map((n) => n[1] as string),
    }));
    expect(rows.map((r) => r.face).sort()).toEqual(Object.keys(names).sort());
    for (const { face, documented } of rows) {
      expect(documented.length).toBeGreaterThan(0);
      expect(names[face]).toEqual(expect.arrayContaining(documented));
    }
  }, 240_000);

  // Both projects hold @ts-expect-error lines (a wrong id, body or result type), so a check that
  // passed with untyped (any) declarations would fail as "unused directive".
  it('TypeScript type-checks typed calls with moduleResolution nodenext and bundler', async () => {
    // One TypeScript install (the web app's) checks both projects; the backend's node_modules
    // stays as a backend's would be (its Node types come from there too, see typeRoots).
    const [nodeDir, webDir] = await Promise.all([installs.node, installs.web]);
    const tsc = join(webDir, 'node_modules', 'typescript', 'bin', 'tsc');
    const check = (cwd: string) => execa(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd, env, reject: false });
    const [nodenext, bundler] = await Promise.all([check(nodeDir), check(webDir)]);
    expect(nodenext.stdout + nodenext.stderr).toBe('');
    expect(nodenext.exitCode).toBe(0);
    expect(bundler.stdout + bundler.stderr).toBe('');
    expect(bundler.exitCode).toBe(0);
  }, 240_000);

  it('a Vite React app imports the browser faces and builds; a Node-only face fails its build', async () => {
    const dir = await installs.web;
    const result = await execa(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error'], { cwd: dir, env, reject: false });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const assets = readdirSync(join(dir, 'dist', 'assets'));
    const js = assets
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(dir, 'dist', 'assets', f), 'utf8'))
      .join('\n');
    // WebCall's own code is in the app (its default API host); daily-js is a separate chunk,
    // loaded when a call starts.
    expect(js).toContain('https://api.vapi.ai');
    expect(assets.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(1);
    // The signature check's HMAC payload format: verify's code is in the app too.
    expect(js).toContain('{timestamp}.{body}');
    // `"browser": null`: a page that imports the emulator stops at build time, naming it.
    const nodeOnly = await execa(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.node-only.config.js'], { cwd: dir, env, reject: false });
    expect(nodeOnly.exitCode).not.toBe(0);
    expect(`${nodeOnly.stdout}\n${nodeOnly.stderr}`).toMatch(/"\.\/emulator" is not exported under the conditions \[[^\]]*"browser"[^\]]*\] from package \S*voice-agent-core/);
  }, 240_000);
  it('the CLI installed globally runs `voice --version`, `--help`, `voice dev` and `voice demo` from another folder', async () => {
    const prefix = await installs.global;
    const voice = join(prefix, 'bin', 'voice');
    const elsewhere = mkdtempSync(join(tmp, 'elsewhere-'));
    const cliEnv = { ...env, VOICE_API_KEY: '', VAPI_API_KEY: '', VAPI_TOKEN: '', XDG_CONFIG_HOME: join(elsewhere, 'config'), NO_COLOR: '1', CI: '1' };
    const version = await execa(voice, ['--version'], { cwd: elsewhere, env: cliEnv });
    expect(version.stdout.trim()).toBe(rootPkg.version);
    const help = await execa(voice, ['--help'], { cwd: elsewhere, env: cliEnv });
    expect(help.stdout).toMatch(/^Usage: voice /m);
    expect(help.stdout).toContain('demo');
    // The documented `npx voice-agent-cli ...` runs this package's `voice` (here the global one).
    const npx = await execa('npx', ['--yes', rootPkg.name, '--help'], { cwd: elsewhere, env: { ...npmEnvFor(registry.url, tmp), npm_config_prefix: prefix } });
    expect(npx.stdout).toMatch(/^Usage: voice /m);

    // core's code is in the CLI's bundle once: voice-agent-core is not installed beside it.
    expect(installed(join(prefix, 'lib'))).not.toContain(corePkg.name);

    const dev = execa(voice, ['dev', '--port', '0', '--quiet'], { cwd: elsewhere, env: cliEnv, reject: false });
    const api = await firstUrl(dev);
    const listed = await fetch(new URL('/assistant', api), { headers: { authorization: 'Bearer any-key' } });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([]);
    // The inspector page ships with the CLI and is served from the install.
    const inspector = await fetch(new URL('/__voice/inspector/', api));
    expect(inspector.status).toBe(200);
    expect(await inspector.text()).toContain('<script');
    dev.kill('SIGINT');
    expect((await dev).exitCode).toBe(0);

    // The page, its modules and the core sources it imports, served by Vite from the install.
    const demo = execa(voice, ['demo', '--port', '0', '--slug', 'acme'], { cwd: elsewhere, env: cliEnv, reject: false });
    const page = await firstUrl(demo);
    expect(await (await fetch(page)).text()).toContain('id="root"');
    const hook = await fetch(new URL('/src/useBrowserCall.ts', page));
    expect(hook.status).toBe(200);
    const hookCode = await hook.text();
    const webcall = /import\("([^"?]*\/core\/webcall\/index\.ts)[^"]*"\)/.exec(hookCode)?.[1];
    expect(webcall).toContain(prefix);
    expect((await fetch(new URL(webcall ?? '/missing', page))).status).toBe(200);
    demo.kill('SIGINT');
    const stopped = await demo;
    expect(stopped.exitCode).toBe(0);
    expect(String(stopped.stderr)).not.toMatch(/\bat .+:\d+:\d+/);
  }, 240_000);

  it('the CLI installed from its tarball file (the way until it is on the registry) runs', async () => {
    const prefix = await installs.fromFile;
    const version = await execa(join(prefix, 'bin', 'voice'), ['--version'], { cwd: tmp, env });
    expect(version.stdout.trim()).toBe(rootPkg.version);
  }, 240_000);
});
