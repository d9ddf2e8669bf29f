// `voice call`'s commands that are no API operation (the catalogue builds the group and its
// operations in cli/commands/resources): `watch` follows a call over many requests, `say` speaks
// as the customer on a running `voice dev`.
import type { Command } from 'commander';
import { callSayCommand } from './say.js';
import { callWatchCommand } from './watch.js';

/** Adds `watch` and `say` to the catalogue's `call` group and says so in its description. */
export function addCallCommands(group: Command): Command {
  return group.addCommand(callWatchCommand()).addCommand(callSayCommand()).description(`${group.description()}; follow: watch; speak as the customer (voice dev): say`);
}
