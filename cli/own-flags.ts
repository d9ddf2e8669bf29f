// A global option that a command defines for itself (`voice dev ring --api-url`, `voice demo
// --api-url`, `voice dev --api-key`) is left off the program, so that the command gets it
// (program.ts). Placed before the command (`voice --api-url URL dev ring ID`), it would then be
// read as an unknown command: it moves after the command's words instead, where the command
// reads it, as it does from anywhere after them.
import { Option } from 'commander';
import type { Command } from 'commander';

/**
 * `argv` with each of `globals` (as commander writes them: `--api-url <url>`) that the program
 * does not define moved, with its value, from before the first command word to the end (before
 * a `--`).
 */
export function ownFlagsAfterCommand(argv: readonly string[], program: Command, globals: readonly string[]): string[] {
  const onProgram = new Set(program.options.map((o) => o.long));
  const dropped = new Map<string, boolean>();
  for (const o of globals.map((flags) => new Option(flags))) if (o.long && !onProgram.has(o.long)) dropped.set(o.long, o.required || o.optional);
  if (!dropped.size) return [...argv];
  const valued = new Set(program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
  const kept: string[] = [];
  const moved: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--' || !a.startsWith('-')) break;
    const takes = dropped.get(a.split('=')[0] as string);
    const into = takes === undefined ? kept : moved;
    into.push(a);
    if ((takes ?? valued.has(a)) && !a.includes('=') && i + 1 < argv.length) into.push(argv[++i] as string);
  }
  if (!moved.length) return [...argv];
  const rest = argv.slice(i);
  const dashes = rest.indexOf('--');
  return dashes < 0 ? [...kept, ...rest, ...moved] : [...kept, ...rest.slice(0, dashes), ...moved, ...rest.slice(dashes)];
}
