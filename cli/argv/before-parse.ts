// What the full CLI reads of a command line before commander parses it, each on the one tokenizer
// (tokens.ts): `voice help X Y` as `voice X Y --help`; a global flag that a command defines for
// itself moved after the command's words; an unknown subcommand found with its parent.
import { Option } from 'commander';
import type { Command } from 'commander';
import { tokens } from './tokens.js';
import type { ValueMode } from './tokens.js';

/** How each of `options` takes its value, by long and short flag, for the tokenizer. */
export function valueModes(options: readonly Option[]): Map<string, ValueMode> {
  const modes = new Map<string, ValueMode>();
  for (const o of options) {
    const mode: ValueMode = o.required ? 'required' : o.optional ? 'optional' : 'none';
    for (const flag of [o.long, o.short]) if (flag) modes.set(flag, mode);
  }
  return modes;
}

/** The tokenizer's question answered from `modes`; an unknown option takes no value. */
const askingOf =
  (modes: ReadonlyMap<string, ValueMode>) =>
  (name: string): ValueMode =>
    modes.get(name) ?? 'none';

/**
 * `voice help assistant list` as `voice assistant list --help`: commander's help command only
 * follows its first word, so it would print the group's help instead of the command's.
 * `globals` are the program's options as commander writes them (`--profile <name>`).
 */
export function helpAsFlag(argv: readonly string[], globals: readonly string[]): string[] {
  for (const t of tokens(argv, askingOf(valueModes(globals.map((flags) => new Option(flags)))))) {
    if (t.kind === 'option') continue;
    if (t.kind === 'end' || t.text !== 'help' || t.end === argv.length) break;
    return [...argv.slice(0, t.at), ...argv.slice(t.end), '--help'];
  }
  return [...argv];
}

/**
 * A global option that a command defines for itself (`voice dev ring --api-url`, `voice demo
 * --api-url`, `voice dev --api-key`) is left off the program, so that the command gets it
 * (program.ts). Placed before the command (`voice --api-url URL dev ring ID`), it would then be
 * read as an unknown command: this returns `argv` with each of `globals` (as commander writes
 * them) that the program does not define moved, with its value, from before the first command
 * word to the end (before a `--`), where the command reads it as it does from anywhere after
 * its words.
 */
export function ownFlagsAfterCommand(argv: readonly string[], program: Command, globals: readonly string[]): string[] {
  const onProgram = new Set(program.options.map((o) => o.long));
  const dropped = valueModes(globals.map((flags) => new Option(flags)).filter((o) => o.long && !onProgram.has(o.long)));
  for (const o of program.options) if (o.short) dropped.delete(o.short);
  if (!dropped.size) return [...argv];
  const modes = new Map([...valueModes(program.options), ...dropped]);
  const kept: string[] = [];
  const moved: string[] = [];
  let words = argv.length;
  for (const t of tokens(argv, askingOf(modes))) {
    if (t.kind !== 'option') {
      words = t.at;
      break;
    }
    (dropped.has(t.name) ? moved : kept).push(...argv.slice(t.at, t.end));
  }
  if (!moved.length) return [...argv];
  const rest = argv.slice(words);
  const dashes = rest.indexOf('--');
  return dashes < 0 ? [...kept, ...rest, ...moved] : [...kept, ...rest.slice(0, dashes), ...moved, ...rest.slice(dashes)];
}

/**
 * The first command word of `argv` that names no subcommand of a command that has some, when that
 * command takes no words of its own (`voice dev rset`) or help was asked for (`voice foo --help`).
 */
export function unknownSubcommand(argv: readonly string[], program: Command): { parent: Command; word: string } | undefined {
  const help = argv.includes('--help') || argv.includes('-h');
  let cmd = program;
  const modes = valueModes(program.options);
  for (const t of tokens(argv, askingOf(modes))) {
    if (t.kind === 'end') return undefined;
    // `voice help X Y` names the command as `voice X Y` does.
    if (t.kind === 'option' || t.text === 'help') continue;
    const subs = cmd.commands;
    if (subs.length === 0) return undefined;
    const next = subs.find((c) => c.name() === t.text || c.aliases().includes(t.text));
    if (!next) return help || cmd.registeredArguments.length === 0 ? { parent: cmd, word: t.text } : undefined;
    cmd = next;
    // A subcommand's options are read from its word on, as commander reads them.
    for (const [flag, mode] of valueModes(next.options)) modes.set(flag, mode);
  }
  return undefined;
}
