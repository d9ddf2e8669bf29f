// Suggestions at every level: subcommands of commands that run on their own (`voice dev rset`),
// nested groups, options and values; an unknown command is one even with --help (exit 2).
import { describe, expect, it } from 'vitest';
import { fileHarness } from './harness.js';

const hf = fileHarness();

describe('did you mean', () => {
  it('suggests the closest subcommand of a command that also runs on its own', async () => {
    const run = await hf.current.voice(['dev', 'rset']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("unknown command 'rset' for 'voice dev'");
    expect(run.stderr).toContain('Did you mean reset?');
    expect(run.stderr).not.toContain('too many arguments');
  });

  it('treats an unknown subcommand with --help as unknown (exit 2, no help printed)', async () => {
    for (const [args, near] of [
      [['dev', 'rset', '--help'], 'reset'],
      [['assistant', 'lst', '--help'], 'list'],
      [['eval', 'simulation', 'suit', '-h'], 'suite'],
      [['asistant', '--help'], 'assistant'],
    ] as const) {
      const run = await hf.current.voice(args);
      expect(run.exitCode, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(`Did you mean ${near}?`);
      expect(run.stdout).not.toContain('Usage:');
    }
    const real = await hf.current.voice(['dev', 'reset', '--help']);
    expect(real.exitCode).toBe(0);
    expect(real.stdout).toContain('Usage: voice dev reset');
  });

  it('`voice help X` prints the help of X (exit 0) and treats an unknown X as `voice X` does (exit 2)', async () => {
    for (const args of [['help'], ['help', 'assistant'], ['help', 'assistant', 'list'], ['assistant', 'help', 'list']]) {
      const run = await hf.current.voice(args);
      expect(run.exitCode, args.join(' ')).toBe(0);
      expect(run.stdout).toMatch(args.length === 1 ? /^Usage: voice \[options\]/ : args.includes('list') ? /^Usage: voice assistant list/ : /^Usage: voice assistant/);
    }
    const unknown = await hf.current.voice(['help', 'asistant']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('Did you mean assistant?');
    expect(unknown.stdout).not.toContain('Usage:');
  });

  it('suggests options and values at every level', async () => {
    const option = await hf.current.voice(['dev', 'ring', 'x', '--frm', '+15555550100']);
    expect(option.exitCode).toBe(2);
    expect(option.stderr).toContain('Did you mean --from?');
    const sort = await hf.current.voice(['v2', 'call', 'list', '--sort', 'descending']);
    expect(sort.exitCode).toBe(2);
    expect(sort.stderr).toContain('Did you mean desc?');
    const type = await hf.current.voice(['tool', 'create', '--set', 'type=functoin']);
    expect(type.exitCode).toBe(2);
    expect(type.stderr).toContain('Did you mean function?');
  });
});
