// `voice apply`: plans, asks (or needs --yes without a terminal), then applies in dependency order.
// A failure stops the run; what was done is in the state file and the next apply resumes.
import { Command } from 'commander';
import { apply, ApplyError, plan, planData } from '#core/gitops/index';
import type { Done } from '#core/gitops/index';
import { CliError, ExitCode } from '../../errors.js';
import { printJson } from '../../output/print.js';
import { planText } from '../../output/plan-text.js';
import { dim, green } from '../../output/style.js';
import { confirmOrRefuse } from '../../prompt.js';
import { err, out } from '../../redact.js';
import { checked, gitopsRun, withDir } from './common.js';
import { preferShortRun } from '../../launch/jit-budget.js';

const VERB: Record<Done['action'], string> = { create: 'created', update: 'updated', delete: 'deleted' };

/** The `apply` command. */
export function applyCommand(): Command {
  return withDir(new Command('apply'))
    .description('Apply the resource files to the account (or the emulator): create, update, and with --prune delete')
    .argument('[targets...]', 'types (assistants, tools, simulations/tests...) or files to limit the apply to')
    .option('--prune', 'also delete resources the state knows that no file has')
    .addHelpText(
      'after',
      `
Asks before changing anything on a terminal; elsewhere (CI) it needs --yes.

Examples:
  $ voice apply
  $ voice apply --yes                        # in CI
  $ voice apply --prune --yes
  $ voice apply assistants/front-desk.md --dir resources
  $ voice apply --local --yes                # against \`voice dev\` first
  $ voice apply --dry-run                    # the plan only
`,
    )
    .action(async (targets: string[], _o: unknown, cmd: Command) => {
      preferShortRun();
      const run = gitopsRun(cmd);
      const json = run.ctx.output.mode === 'json';
      const p = await checked(() => plan({ client: run.client, dir: run.dir, statePath: run.statePath, targets, prune: Boolean(run.opts.prune) }));
      for (const w of p.warnings) err(dim(`note: ${w}\n`));
      const total = p.counts.create + p.counts.update + p.counts.delete;
      if (!json) out(planText(p, run.baseUrl, run.ctx.output.color));
      if (total === 0 || run.ctx.opts.dryRun) {
        if (json) printJson({ account: run.account, apiUrl: run.baseUrl, plan: planData(p), done: [] }, run.ctx.output);
        else if (total === 0) err('Nothing to apply.\n');
        return;
      }
      await confirmOrRefuse(`apply ${total === 1 ? 'this change' : `these ${total} changes`} to ${run.baseUrl}`, run.ctx.opts);
      try {
        const result = await apply({
          client: run.client,
          plan: p,
          onChange: (d) => err(`${green('✓')} ${VERB[d.action]} ${d.kind}/${d.id} ${dim(d.uuid)}\n`),
        });
        if (json) printJson({ account: run.account, apiUrl: run.baseUrl, plan: planData(p), done: result.done }, run.ctx.output);
        else out(`Applied: ${result.counts.create} created, ${result.counts.update} updated, ${result.counts.delete} deleted.\n`);
      } catch (e) {
        if (!(e instanceof ApplyError)) throw e;
        const done = e.done.length ? `Done before it (recorded in ${run.statePath}): ${e.done.map((d) => `${VERB[d.action]} ${d.kind}/${d.id}`).join(', ')}.` : 'Nothing was changed before it.';
        throw new CliError(`${e.message}\n${done}`, ExitCode.Failure, 'Fix the cause and run `voice apply` again: it resumes where this one stopped.');
      }
    });
}
