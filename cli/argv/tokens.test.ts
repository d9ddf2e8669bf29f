// The one tokenizer, against commander: every command line here is also parsed by commander, and
// the words and option values must be the ones commander finds.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { tokens, wordsOf } from './tokens.js';
import type { ValueMode } from './tokens.js';

const MODES: Record<string, ValueMode> = { '--profile': 'required', '-p': 'required', '--since': 'optional', '--json': 'none' };
const mode = (name: string): ValueMode => MODES[name] ?? 'none';

/** What commander makes of `argv` with the same options: its words and option values. */
function commanderReads(argv: string[]): { words: string[]; opts: Record<string, unknown> } {
  const cmd = new Command('x').option('-p, --profile <name>').option('--since [when]').option('--json').argument('[words...]').exitOverride();
  cmd.parse(argv, { from: 'user' });
  return { words: cmd.args, opts: cmd.opts() };
}

describe('tokens', () => {
  it('splits words, options and values as commander does', () => {
    for (const argv of [
      ['a', '--profile', 'ci', 'b'],
      ['--profile=ci', 'a'],
      ['-p', '--json', 'a'],
      ['--since', 'a'],
      ['--since', '--json', 'a'],
      ['a', '-', 'b'],
      ['a', '--', '--json', '-p'],
    ]) {
      const read = commanderReads(argv);
      expect(wordsOf(argv, mode), argv.join(' ')).toEqual(read.words);
      const values: Record<string, unknown> = {};
      for (const t of tokens(argv, mode)) {
        if (t.kind !== 'option') continue;
        const key = t.name === '-p' ? 'profile' : t.name.slice(2);
        values[key] = t.value ?? true;
      }
      expect(values, argv.join(' ')).toEqual(read.opts);
    }
  });

  it('bounds each token by its arguments, and asks about an option only when it reaches it', () => {
    const asked: string[] = [];
    const found = [...tokens(['--json', 'dev', '--port', '9', '--', 'x'], (name) => (asked.push(name), name === '--port' ? 'required' : 'none'))];
    expect(found.map((t) => [t.kind, t.at, t.end])).toEqual([
      ['option', 0, 1],
      ['word', 1, 2],
      ['option', 2, 4],
      ['end', 4, 5],
      ['word', 5, 6],
    ]);
    expect(asked).toEqual(['--json', '--port']);
    expect([...tokens(['--profile'], mode)]).toEqual([{ kind: 'option', name: '--profile', value: undefined, inline: false, at: 0, end: 1 }]);
  });
});
