// The readings the full CLI makes before commander parses a line: help as a flag, and the unknown
// subcommand with its parent (ownFlagsAfterCommand is tested with the program, cli/program.test.ts).
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { helpAsFlag, unknownSubcommand } from './before-parse.js';

const GLOBALS = ['--profile <name>', '--json'];

describe('helpAsFlag', () => {
  it('reads `help X Y` as `X Y --help`, past the global options and their values', () => {
    expect(helpAsFlag(['help', 'assistant', 'list'], GLOBALS)).toEqual(['assistant', 'list', '--help']);
    expect(helpAsFlag(['--profile', 'help', 'help', 'dev'], GLOBALS)).toEqual(['--profile', 'help', 'dev', '--help']);
    expect(helpAsFlag(['help'], GLOBALS)).toEqual(['help']);
    expect(helpAsFlag(['assistant', 'help'], GLOBALS)).toEqual(['assistant', 'help']);
  });
});

describe('unknownSubcommand', () => {
  const program = (): Command => {
    const root = new Command('voice').option('--profile <name>');
    const dev = new Command('dev').option('--port <n>').action(() => undefined);
    dev.addCommand(new Command('reset')).addCommand(new Command('ring').argument('<id>'));
    root.addCommand(dev).addCommand(new Command('api').argument('<path>'));
    return root;
  };

  it('finds the word that names no subcommand, with its parent', () => {
    const root = program();
    const found = (...argv: string[]): [string, string] | undefined => {
      const unknown = unknownSubcommand(argv, root);
      return unknown && [unknown.parent.name(), unknown.word];
    };
    expect(found('dev', 'rset')).toEqual(['dev', 'rset']);
    expect(found('--profile', 'dev', 'foo', '--help')).toEqual(['voice', 'foo']);
    expect(found('help', 'dev', 'rset')).toEqual(['dev', 'rset']);
  });

  it('leaves option values, arguments and known commands alone', () => {
    const root = program();
    for (const argv of [
      ['dev', '--port', 'reset2'],
      ['dev', 'ring', 'x'],
      ['api', '/assistant'],
      ['dev', '--', 'x'],
      ['dev', 'reset'],
    ])
      expect(unknownSubcommand(argv, root), argv.join(' ')).toBeUndefined();
  });
});
