// `voice catalogue`: every operation with its method, path, auth and the command that calls it.
import { Command } from 'commander';
import { catalogue, flatten } from '#core/catalogue/index';
import { contextOf } from '../../context.js';
import { printJson, printView } from '../../output/print.js';
import { commandWords } from '../resources/words.js';

/** One row of the catalogue listing. */
export interface CatalogueRow {
  method: string;
  path: string;
  auth: 'bearer' | 'none';
  deprecated: boolean;
  /** The argv after `voice`, with `<name>` placeholders. */
  command: string[];
}

/** Every operation as a catalogue row. */
export function catalogueRows(): CatalogueRow[] {
  return flatten(catalogue).map((e) => ({ method: e.op.method, path: e.op.path, auth: e.op.auth, deprecated: Boolean(e.op.deprecated), command: commandWords(e) }));
}

/** The `catalogue` command. */
export function catalogueCommand(): Command {
  return new Command('catalogue')
    .description('List every platform operation with its method, path, auth and CLI command')
    .addHelpText('after', '\nExamples:\n  $ voice catalogue\n  $ voice catalogue --json | jq -r \'.[] | select(.method == "DELETE") | .path\'\n')
    .action(async (_o: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const rows = catalogueRows();
      if (ctx.output.mode === 'json') return printJson(rows, ctx.output);
      await printView(
        {
          kind: 'table',
          headers: ['METHOD', 'PATH', 'AUTH', 'COMMAND'],
          fields: ['method', 'path', 'auth', 'command'],
          rows: rows.map((r) => [r.method, r.path, r.auth + (r.deprecated ? ' (deprecated)' : ''), `voice ${r.command.join(' ')}`]),
        },
        ctx.output,
      );
    });
}
