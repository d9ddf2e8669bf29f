// The harness itself: a failing command, a program that would leave the machine, and a norun
// without its reason are caught, so a guide's passing run means its blocks ran.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { kindOf, notRunBecause, parseBlocks, type GuideContext } from './harness.js';
import { missingOutput, runShell } from './shell.js';
import { commandsOf, programsOf } from './words.js';

const dir = mkdtempSync(join(tmpdir(), 'voice-docs-harness-'));
const ctx: GuideContext = { root: fileURLToPath(new URL('..', import.meta.url)), dir, url: 'http://127.0.0.1:9', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } };
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const block = (code: string, info = 'sh') => parseBlocks('```' + info + '\n' + code + '```\n')[0] as NonNullable<ReturnType<typeof parseBlocks>[0]>;

describe('docs harness', () => {
  it('reads a norun reason from the fence, quoted or not', () => {
    expect(notRunBecause(block('x\n', 'sh norun="needs a hosted key"'))).toBe('needs a hosted key');
    expect(notRunBecause(block('x\n', 'sh norun'))).toBe('');
    expect(kindOf(block('x\n', 'ts norun=offline'))).toBe('shown');
    expect(kindOf(block('x\n', 'sh'))).toBe('shell');
  });

  it('keeps a here-document with its command and finds every program a command runs', () => {
    expect(commandsOf('voice a -f - <<\'JSON\'\n{ "a": 1 } # kept\nJSON\nvoice b\n')).toEqual(['voice a -f - <<\'JSON\'\n{ "a": 1 } # kept\nJSON', 'voice b']);
    expect(programsOf('ID=$(voice x --json | jq -r .id) && curl "a|b" ; npm i')).toEqual(['voice', 'jq', 'curl', 'npm']);
  });

  it('fails a block whose command fails, or that runs a program leaving the machine', async () => {
    await expect(runShell(block('echo ok\ntest 1 = 2\n'), ctx)).rejects.toThrow(/exited 1/);
    await expect(runShell(block('npm install voice-agent-core\n'), ctx)).rejects.toThrow(/`npm` does not run here/);
    await expect(runShell(block('curl https://example.com/\n'), ctx)).rejects.toThrow(/only reach the emulator/);
    await expect(runShell(block('echo ok | grep ok\n'), ctx)).resolves.toContain('ok');
  });
});

describe('docs harness, across blocks', () => {
  it('keeps variables for the next block, checks `# exits N`, and finds output lines that were not printed', async () => {
    await runShell(block('GREETING=$(echo hello)\n'), ctx);
    expect(await runShell(block('echo "$GREETING world"\n'), ctx)).toContain('hello world');
    await expect(runShell(block('test 1 = 2   # exits 1\n'), ctx)).resolves.toBe('');
    await expect(runShell(block('test 1 = 1   # exits 1\n'), ctx)).rejects.toThrow(/expected exit 1, got 0/);
    expect(missingOutput('hello  world\nError: 404 …\ngone\n', 'x hello world\nError: 404 Not Found')).toEqual(['gone']);
  });
});
