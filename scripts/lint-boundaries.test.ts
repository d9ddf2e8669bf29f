// The package boundaries lint holds: outside core, a relative import of core fails lint (core is
// imported as `voice-agent-core/<entry>`); inside core, an import that leaves core fails too.
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

  it('passes the same import through an entry point of core', async () => {
    expect(await rulesFor("import { catalogue } from '#core/catalogue/index';\nexport { catalogue };\n", 'cli/commands/example.ts')).toEqual([]);
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
