// What `voice test`'s subcommands share with it.
import type { Command } from 'commander';

/**
 * The options a subcommand shares with `test` itself (merge's --junit, import's --target): the
 * program hands options it does not know to `test`, which takes its own wherever they stand.
 */
export function sharedOpts<T>(cmd: Command, names: readonly string[]): T {
  const parent = cmd.parent?.opts() ?? {};
  const own: Record<string, unknown> = { ...cmd.opts() };
  for (const n of names) if (own[n] === undefined && parent[n] !== undefined) own[n] = parent[n];
  return own as T;
}
