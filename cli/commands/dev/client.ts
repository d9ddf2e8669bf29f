// Subcommands of `voice dev` that talk to an emulator already running (reset, snapshot, ring):
// `voice dev`'s server options (--port, --speed, --seed...) start an emulator, so they mean
// nothing here. `voice dev` parses them wherever they appear, so they are refused here instead of
// being silently ignored, and kept out of these commands' help.
import { Command } from 'commander';
import type { Help, Option } from 'commander';
import { usageError } from '../../errors.js';
import { addDevOptions } from './options.js';

/** `voice dev`'s options that configure the server (--api-key is not refused: here it is the key to send). */
const SERVER_FLAGS: ReadonlySet<string> = new Set(
  addDevOptions(new Command(), 0)
    .options.map((o) => o.long)
    .filter((long): long is string => long !== undefined && long !== '--api-key'),
);

function isServerOption(o: Option): boolean {
  return o.long !== undefined && SERVER_FLAGS.has(o.long);
}

/** A command whose help lists no server option of `voice dev` among its global options. */
export class ClientCommand extends Command {
  override createHelp(): Help {
    const help = super.createHelp();
    const visible = help.visibleGlobalOptions.bind(help);
    help.visibleGlobalOptions = (cmd: Command): Option[] => visible(cmd).filter((o) => !isServerOption(o) && o.long !== '--api-key');
    return help;
  }
}

/** Throws a usage error (exit 2) when the command line gave one of `voice dev`'s server options. */
export function refuseServerOptions(cmd: Command): void {
  for (let parent = cmd.parent; parent; parent = parent.parent) {
    for (const o of parent.options) {
      if (!isServerOption(o) || parent.getOptionValueSource(o.attributeName()) !== 'cli') continue;
      const port = o.long === '--port' ? String(parent.getOptionValue('port')) : 'PORT';
      const names: string[] = [];
      for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
      if (names[0] !== 'voice') names.unshift('voice');
      throw usageError(
        `${o.long as string} is an option of \`voice dev\` (starting an emulator); \`${names.join(' ')}\` talks to one already running.`,
        `Point it at that emulator with --api-url http://127.0.0.1:${port}`,
      );
    }
  }
}
