// docs/commands.md is what `npm run docs:commands` writes from the catalogue and the program now.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { commandReference } from '../cli/reference.js';

it('docs/commands.md is up to date (run `npm run docs:commands`)', async () => {
  const committed = readFileSync(new URL('./commands.md', import.meta.url), 'utf8');
  const now = await commandReference();
  expect(now).toContain('## `voice assistant`');
  expect(now).toContain('`voice dev');
  expect(committed).toBe(now);
}, 60_000);
