// The inspector page `voice dev` serves is React's production build, whatever NODE_ENV the build
// ran under: built from a test runner (NODE_ENV=test) it once shipped the development build,
// which rendered a busy calls list several times slower.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from './build.js';

beforeAll(() => ensureBuilt());

it('ships the inspector as a production build', () => {
  const assets = join(ROOT, 'dist', 'inspector', 'assets');
  const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const f of scripts) expect(readFileSync(join(assets, f), 'utf8')).not.toMatch(/jsxDEV|react-dom\.development/);
});
