// `npm publish --dry-run` of every package, as the release workflow (.github/workflows/release.yml)
// runs it but without uploading: against a loopback registry that holds none of them yet, with a
// placeholder token, so npm checks everything a real publish checks. Any `npm warn` fails.
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmEnvFor, startLocalRegistry, type LocalRegistry } from './local-registry.js';
import { warnings } from './package-checks.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let tmp: string;
let registry: LocalRegistry;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'voice-publish-'));
  // No package of the lock is needed: the registry only answers that ours are not published yet.
  const emptyLock = join(tmp, 'lock.json');
  writeFileSync(emptyLock, '{"packages":{}}');
  registry = await startLocalRegistry({ lockfile: emptyLock, cacheDir: join(tmp, 'cache'), packages: [] });
  const host = new URL(registry.url).host;
  writeFileSync(join(tmp, 'npmrc'), `//${host}/:_authToken=placeholder-for-dry-run\n`);
  writeFileSync(join(tmp, 'global-npmrc'), '');
});

afterAll(async () => {
  await registry?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** `npm publish --dry-run` in a package folder (the build is fresh: vitest's global setup). */
function dryRun(dir: string) {
  return execa('npm', ['publish', '--dry-run', '--ignore-scripts', '--loglevel=notice'], { cwd: dir, env: npmEnvFor(registry.url, tmp), reject: false, timeout: 120_000 });
}

// The CLI (the root) and every workspace package (core, audio), as the workflow publishes them.
const FOLDERS = ['.', ...(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces];

describe('npm publish --dry-run', () => {
  it('covers the CLI and core at least', () => expect(FOLDERS).toEqual(expect.arrayContaining(['.', 'core'])));

  for (const folder of FOLDERS) {
    const pkg = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as { name: string; version: string };
    it(`${pkg.name}: publishes cleanly, with no warning`, async () => {
      const run = await dryRun(join(ROOT, folder));
      const output = `${run.stdout}\n${run.stderr}`;
      expect(warnings(run)).toEqual([]);
      expect(run.exitCode).toBe(0);
      expect(output).toContain(`+ ${pkg.name}@${pkg.version}`);
      expect(output).toContain(`Publishing to ${registry.url}`);
    }, 150_000);
  }
});
