// `voice pull`: writes the account's resources as files in the gitops layout and records them in
// the state file. Files edited locally are kept unless --force.
import { Command } from 'commander';
import { pull } from '#core/gitops/index';
import { printJson } from '../../output/print.js';
import { dim, yellow } from '../../output/style.js';
import { err, out } from '../../redact.js';
import { checked, gitopsRun, withDir } from './common.js';

/** The `pull` command. */
export function pullCommand(): Command {
  return withDir(new Command('pull'))
    .description('Write every resource of the account (or the emulator) as files in the gitops layout')
    .argument('[types...]', 'types to pull (assistants, tools, squads, simulations...); all when none')
    .option('--force', 'overwrite files edited locally since the last pull or apply')
    .addHelpText(
      'after',
      `
Examples:
  $ voice pull
  $ voice pull assistants tools --dir resources/production
  $ voice pull --force
  $ voice pull --local --dir /tmp/from-dev     # what \`voice dev\` holds
`,
    )
    .action(async (types: string[], _o: unknown, cmd: Command) => {
      const run = gitopsRun(cmd);
      const files = await checked(() => pull({ client: run.client, dir: run.dir, statePath: run.statePath, kinds: types, force: Boolean(run.opts.force), account: `${run.account} (${run.baseUrl})` }));
      if (run.ctx.output.mode === 'json') return printJson({ account: run.account, apiUrl: run.baseUrl, stateFile: run.statePath, files }, run.ctx.output);
      for (const f of files) {
        if (f.status === 'written') out(`wrote ${f.file}\n`);
        else if (f.status === 'kept') err(yellow(`kept ${f.file}: edited locally since the last pull or apply (--force overwrites it)\n`));
      }
      const count = (s: string): number => files.filter((f) => f.status === s).length;
      err(dim(`${count('written')} written, ${count('unchanged')} unchanged, ${count('kept')} kept; state: ${run.statePath}\n`));
    });
}
