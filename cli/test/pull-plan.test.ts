// The README's tour on a seeded `voice dev`: `voice pull` then `voice plan` finds nothing to change.
// Fields the platform assigns (a vapi number's `number`) stay out of the files, since no create or
// update accepts them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { fileHarness } from './harness.js';

const hf = fileHarness({ seed: true });

it('pulls the seeded account and plans nothing: every file passes the request schemas', async () => {
  const pulled = await hf.current.voice(['pull', '--dir', 'resources']);
  expect(pulled.exitCode, pulled.stderr).toBe(0);
  expect(pulled.stdout).toContain('phoneNumbers/acme-main-line.yml');
  const number = readFileSync(join(hf.current.home, 'resources', 'phoneNumbers', 'acme-main-line.yml'), 'utf8');
  expect(number).toContain('provider: vapi');
  expect(number).not.toMatch(/^number:/m);
  const plan = await hf.current.voice(['plan', '--dir', 'resources']);
  expect(plan.exitCode, plan.stderr).toBe(0);
  expect(plan.stdout.trimEnd().split('\n').pop()).toBe('Plan: 0 to create, 0 to update, 0 to delete.');
});
