// The one reading of a command line outside commander (cli/argv/README.md): words, options with
// their values and the `--` that ends options, split as commander splits them. The fast lane
// parses reads with it (it must not load commander), and the full CLI reads the words commander
// cannot look ahead at with it: which command a line names before the program is built, an
// unknown subcommand, a global flag placed before a command that defines it. No imports: the
// fast lane bundles this file.

/** How an option takes a value, as commander declares it: `<v>` required, `[v]` optional. */
export type ValueMode = 'none' | 'required' | 'optional';

/** One piece of a command line; `at` and `end` bound its arguments in argv. */
export type Token =
  | { kind: 'word'; text: string; at: number; end: number }
  | { kind: 'option'; name: string; value: string | undefined; inline: boolean; at: number; end: number }
  | { kind: 'end'; at: number; end: number };

/** Whether commander reads `arg` as an option: a dash and more (a lone `-` is a word). */
const isOption = (arg: string): boolean => arg.length > 1 && arg.startsWith('-');

/**
 * The tokens of `argv`, read lazily: `mode` is asked about each option when it is reached, so a
 * caller that learns more options from the words read so far (a subcommand's) is answered in time.
 * `--name=value` carries its value inline; a required value is the next argument whatever it is,
 * an optional one only when it is no option; after `--` every argument is a word.
 */
export function* tokens(argv: readonly string[], mode: (name: string) => ValueMode): Generator<Token> {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      yield { kind: 'end', at: i, end: i + 1 };
      for (let j = i + 1; j < argv.length; j++) yield { kind: 'word', text: argv[j] as string, at: j, end: j + 1 };
      return;
    }
    if (!isOption(arg)) {
      yield { kind: 'word', text: arg, at: i, end: i + 1 };
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    if (eq > 0) {
      yield { kind: 'option', name: arg.slice(0, eq), value: arg.slice(eq + 1), inline: true, at: i, end: i + 1 };
      continue;
    }
    const takes = mode(arg);
    const next = argv[i + 1];
    const value = takes === 'required' || (takes === 'optional' && next !== undefined && !isOption(next)) ? next : undefined;
    yield { kind: 'option', name: arg, value, inline: false, at: i, end: value === undefined ? i + 1 : i + 2 };
    if (value !== undefined) i++;
  }
}

/** The words of `argv` in order (option values and options left out, words after `--` kept). */
export function wordsOf(argv: readonly string[], mode: (name: string) => ValueMode): string[] {
  const words: string[] = [];
  for (const t of tokens(argv, mode)) if (t.kind === 'word') words.push(t.text);
  return words;
}
