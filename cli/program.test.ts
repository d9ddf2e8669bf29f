import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { catalogue, flatten } from '#core/catalogue/index';
import { buildProgram } from './program.js';
import { ownFlagsAfterCommand } from './argv/before-parse.js';
import { commandWords } from './commands/resources/words.js';

function find(root: Command, words: readonly string[]): Command | undefined {
  let cmd: Command | undefined = root;
  for (const w of words) cmd = cmd?.commands.find((c) => c.name() === w);
  return cmd;
}

function helpOf(cmd: Command): string {
  let text = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string) => ((text += s), true)) as typeof process.stdout.write;
  try {
    cmd.outputHelp();
  } finally {
    process.stdout.write = write;
  }
  return text;
}

describe('the program', () => {
  it('has a command with an example in its help for every catalogue operation', async () => {
    for (const entry of flatten(catalogue)) {
      const program = await buildProgram([entry.resource[0] as string]);
      const cmd = find(program, [...entry.resource, entry.action]);
      expect(cmd, entry.keys.join('.')).toBeDefined();
      const help = helpOf(cmd as Command);
      expect(help).toContain(`${entry.op.method} ${entry.op.path}`);
      expect(help).toMatch(new RegExp(`Examples:\\n  \\$ voice ${entry.resource.join(' ')} ${entry.action}`));
      const placeholders = commandWords(entry).filter((w) => w.startsWith('<'));
      expect((cmd as Command).registeredArguments.map((a) => `<${a.name()}>`)).toEqual(placeholders);
    }
  });

  it('shows examples in the help of every command, groups included', async () => {
    const checked: string[] = [];
    const walk = (cmd: Command, words: string[]): void => {
      expect(helpOf(cmd), words.join(' ')).toMatch(/Examples:\n {2}\$ /);
      checked.push(words.join(' '));
      for (const sub of cmd.commands) walk(sub, [...words, sub.name()]);
    };
    const root = await buildProgram([]);
    const tops = root.commands.map((c) => c.name()).filter((n) => !['demo', 'dev', 'visitor'].includes(n));
    for (const top of tops) {
      const program = await buildProgram([top]);
      walk(program.commands.find((c) => c.name() === top) as Command, [top]);
    }
    expect(checked).toEqual(expect.arrayContaining(['assistant', 'assistant list', 'test-suite run', 'test-suite run create', 'auth', 'auth status', 'api', 'completion']));
    expect(checked.length).toBeGreaterThan(135 + 27);
  });

  it('documents exit codes and environment variables in --help', async () => {
    const help = helpOf(await buildProgram([]));
    for (const line of [
      '0    success',
      '1    failure',
      '2    usage or bad input',
      '4    missing or rejected credentials',
      '130  interrupted',
      'VOICE_API_KEY',
      'VOICE_API_URL',
      'VOICE_PROFILE',
      'XDG_CONFIG_HOME',
      'NO_COLOR',
    ]) {
      expect(help).toContain(line);
    }
  });

  it('lets a command keep a flag it defines itself', async () => {
    const { Command: Cmd } = await import('commander');
    const extra = [{ name: 'dev', description: 'emulator', load: async () => new Cmd('dev').option('--api-key <key>', 'required key') }];
    const withDev = await buildProgram(['dev', '--api-key', 'k'], extra);
    expect(withDev.options.map((o) => o.long)).not.toContain('--api-key');
    const other = await buildProgram(['assistant', 'list'], extra);
    expect(other.options.map((o) => o.long)).toContain('--api-key');
    expect(other.commands.find((c) => c.name() === 'dev')?.description()).toBe('emulator');
  });

  it('moves a flag the command keeps from before the command to after it, value and all', async () => {
    const { Command: Cmd } = await import('commander');
    const ring = new Cmd('ring').argument('<id>').option('--api-url <url>', 'the emulator');
    const extra = [{ name: 'dev', description: 'emulator', load: async () => new Cmd('dev').addCommand(ring) }];
    const globals = ['--profile <name>', '--api-url <url>', '--json'];
    const argv = ['--profile', 'p', '--api-url', 'http://127.0.0.1:9', '--json', 'dev', 'ring', 'ID'];
    const program = await buildProgram(argv, extra);
    expect(ownFlagsAfterCommand(argv, program, globals)).toEqual(['--profile', 'p', '--json', 'dev', 'ring', 'ID', '--api-url', 'http://127.0.0.1:9']);
    expect(ownFlagsAfterCommand(['--api-url=http://x', 'dev', 'exec', '--', 'npm', 'test'], program, globals)).toEqual(['dev', 'exec', '--api-url=http://x', '--', 'npm', 'test']);
    // Flags the program keeps, and flags after the command, stay where they are.
    expect(ownFlagsAfterCommand(['dev', 'ring', 'ID', '--api-url', 'u'], program, globals)).toEqual(['dev', 'ring', 'ID', '--api-url', 'u']);
    const plain = await buildProgram(['--api-url', 'u', 'assistant', 'list']);
    expect(ownFlagsAfterCommand(['--api-url', 'u', 'assistant', 'list'], plain, globals)).toEqual(['--api-url', 'u', 'assistant', 'list']);
  });

  it('builds only the resource and action named on the command line', async () => {
    const program = await buildProgram(['assistant', 'list']);
    expect(find(program, ['assistant'])?.commands.map((c) => c.name())).toEqual(['list']);
    expect(find(program, ['squad'])?.commands).toEqual([]);
    const all = await buildProgram(['assistant', 'lst']);
    expect(find(all, ['assistant'])?.commands.map((c) => c.name())).toContain('list');
  });
});
