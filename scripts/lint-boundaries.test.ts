// The package boundaries lint holds: outside core, a relative import of core fails lint, and so
// does `voice-agent-core/<x>` for an x core does not publish (its internals are `#core/<file>`,
// which examples, the code users copy, may not use); inside core, an import that leaves core fails too.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The rule ids lint reports for `code` as if it were the file at `path`. */
async function rulesFor(code: string, path: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${path}` });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('package boundaries', () => {
  it('fails on a relative import of core from cli, web and the tests around them', async () => {
    expect(await rulesFor("import { catalogue } from '../../core/catalogue/index.js';\nexport { catalogue };\n", 'cli/commands/example.ts')).toContain('no-restricted-imports');
    expect(await rulesFor("import type { Delivery } from '../../../core/emulator/store/record.js';\nexport type { Delivery };\n", 'web/inspector/src/example.ts')).toContain('no-restricted-imports');
    expect(await rulesFor("import { VERSION } from '../core/version.js';\nexport { VERSION };\n", 'bench/example.ts')).toContain('no-restricted-imports');
  });

  it('passes the same import through a public face of core, or through #core/ for its sources', async () => {
    expect(await rulesFor("import { catalogue } from 'voice-agent-core/client';\nexport { catalogue };\n", 'cli/commands/example.ts')).toEqual([]);
    expect(await rulesFor("import { catalogue } from '#core/catalogue/index';\nexport { catalogue };\n", 'cli/commands/example.ts')).toEqual([]);
  });

  it('fails on a subpath of voice-agent-core that is not a published face (it would not resolve for users)', async () => {
    expect(await rulesFor("import { catalogue } from 'voice-agent-core/catalogue';\nexport { catalogue };\n", 'cli/commands/example.ts')).toContain('no-restricted-imports');
    expect(await rulesFor("import type { Delivery } from 'voice-agent-core/emulator/store';\nexport type { Delivery };\n", 'web/inspector/src/example.ts')).toContain('no-restricted-imports');
    expect(await rulesFor("import { x } from 'voice-agent-core';\nexport { x };\n", 'docs/example.ts')).toContain('no-restricted-imports');
  });

  it('keeps examples, the code users copy, to the published faces', async () => {
    expect(await rulesFor("import { startEmulator } from 'voice-agent-core/emulator';\nexport { startEmulator };\n", 'examples/vitest/example.ts')).toEqual([]);
    expect(await rulesFor("import { startHook } from '#core/emulator/calls/testing';\nexport { startHook };\n", 'examples/vitest/example.ts')).toContain('no-restricted-imports');
  });

  it('fails on an import that leaves core, at any depth', async () => {
    expect(await rulesFor("import seed from '../../fixtures/seed.json' with { type: 'json' };\nexport { seed };\n", 'core/emulator/example.ts')).toContain('no-restricted-imports');
    expect(await rulesFor("import { main } from '../../../cli/program.js';\nexport { main };\n", 'core/emulator/calls/example.ts')).toContain('no-restricted-imports');
    expect(await rulesFor("import { x } from '../web/x.js';\nexport { x };\n", 'core/example.ts')).toContain('no-restricted-imports');
    expect(await rulesFor("import { record } from '../emulator/store/record.js';\nexport { record };\n", 'core/visitors/example.ts')).toEqual([]);
  });

  it('lets core load the optional audio package only with import()', async () => {
    expect(await rulesFor("import { synthesize } from 'voice-agent-audio';\nexport { synthesize };\n", 'core/emulator/calls/example.ts')).toContain('no-restricted-imports');
    expect(await rulesFor("export const load = () => import('voice-agent-audio');\n", 'core/emulator/calls/example.ts')).toEqual([]);
  });
});
