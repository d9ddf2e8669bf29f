// `voice plan`: what `voice apply` would change, field by field. Changes nothing.
import { Command } from 'commander';
import { plan, planData } from '#core/gitops/index';
import { printJson } from '../../output/print.js';
import { planText } from '../../output/plan-text.js';
import { dim } from '../../output/style.js';
import { err, out } from '../../redact.js';
import { checked, gitopsRun, withDir } from './common.js';

/** The `plan` command. */
export function planCommand(): Command {
  return withDir(new Command('plan'))
    .description('Compare the resource files with the account (or the emulator) and show what apply would change')
    .argument('[targets...]', 'types (assistants, tools, simulations/tests...) or files to limit the plan to')
    .option('--prune', 'also plan deleting resources the state knows that no file has')
    .addHelpText(
      'after',
      `
The last line is always: Plan: N to create, N to update, N to delete.

Examples:
  $ voice plan
  $ voice plan --dir resources/production --prune
  $ voice plan assistants tools
  $ voice plan resources/assistants/front-desk.md --json
  $ voice plan --local                      # against \`voice dev\`
`,
    )
    .action(async (targets: string[], _o: unknown, cmd: Command) => {
      const run = gitopsRun(cmd);
      const p = await checked(() => plan({ client: run.client, dir: run.dir, statePath: run.statePath, targets, prune: Boolean(run.opts.prune) }));
      for (const w of p.warnings) err(dim(`note: ${w}\n`));
      if (run.ctx.output.mode === 'json') return printJson({ account: run.account, apiUrl: run.baseUrl, ...planData(p) }, run.ctx.output);
      out(planText(p, run.baseUrl, run.ctx.output.color));
    });
}
