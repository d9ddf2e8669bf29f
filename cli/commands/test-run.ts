// The work of `voice test`: check the folder, pick the platform (a local one started here with the
// folder applied, or a running one whose state file maps the folder's ids), pick the target, run
// (core/testing/runner), then print, write JUnit and exit by the results.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from 'voice-agent-core/client';
import { showProblem } from 'voice-agent-core/gitops';
import type { LocalResource } from 'voice-agent-core/gitops';
import { byId, lintFolder, NO_MODEL_REASON, ofKind, runTests } from 'voice-agent-core/testing';
import type { TestFolder, TestReport, TestTarget } from 'voice-agent-core/testing';
import type { Context } from '../context.js';
import { CliError, ExitCode, usageError } from '../errors.js';
import { junitXml } from '../output/junit.js';
import { prepareOutFile, writeOutFile } from '../output/out-file.js';
import { printJson } from '../output/print.js';
import { progressLine, reportText, summaryLine } from '../output/test-report.js';
import { dim } from '../output/style.js';
import { err, out } from '../redact.js';
import type { DevOptions } from './dev-options.js';
import { modelConfig } from './dev-run.js';
import { accountLabel } from './gitops-common.js';

/** The parsed options of `voice test` (with the global ones it reads). */
export interface TestOptions {
  target?: string;
  iterations: number;
  concurrency: number;
  filter?: string;
  junit?: string;
  lint?: boolean;
  hosted?: boolean;
  llm?: string;
  llmKey?: string;
  llmModel?: string[];
  llmRecord?: string;
  llmReplay?: string;
  apiUrl?: string;
  local?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The target the options name, as a kind and file id (or a UUID); a usage error when unclear. */
export function chooseTarget(folder: TestFolder, wanted: string | undefined): { type: 'assistant' | 'squad'; id?: string; uuid?: string } {
  if (wanted) {
    const m = /^(assistant|squad):(.+)$/.exec(wanted);
    if (m && UUID.test(m[2] as string)) return { type: m[1] as 'assistant' | 'squad', uuid: m[2] as string };
    const bare = wanted.replace(/^(assistants|squads)\//, '');
    const kinds = wanted.startsWith('squads/') ? ['squads'] : wanted.startsWith('assistants/') ? ['assistants'] : ['assistants', 'squads'];
    for (const kind of kinds) if (byId(folder, kind, bare)) return { type: kind === 'squads' ? 'squad' : 'assistant', id: bare };
    throw usageError(
      `--target ${wanted}: no assistant or squad file with that id in ${folder.dir}.`,
      `Name one of: ${[...ofKind(folder, 'assistants'), ...ofKind(folder, 'squads')].map((r) => `${r.kind.folder}/${r.id}`).join(', ') || '(none)'}, or assistant:UUID.`,
    );
  }
  const squads = ofKind(folder, 'squads');
  if (squads.length === 1) return { type: 'squad', id: (squads[0] as LocalResource).id };
  const assistants = ofKind(folder, 'assistants');
  if (!squads.length && assistants.length === 1) return { type: 'assistant', id: (assistants[0] as LocalResource).id };
  throw usageError(
    `${folder.dir} has ${squads.length} squad(s) and ${assistants.length} assistant(s): say which to test with --target.`,
    'e.g. --target receptionist, --target squads/front-office or --target assistant:UUID',
  );
}

function lintOrExit(dir: string): TestFolder {
  const kind = statSync(dir, { throwIfNoEntry: false });
  const hint = 'Pass the resources folder `voice pull` writes (assistants/, simulations/, evals/ ...; the default is ./resources).';
  if (!kind) throw usageError(`${dir} does not exist.`, hint);
  if (!kind.isDirectory()) throw usageError(`${dir} is a file, not a resources folder.`, hint);
  const folder = lintFolder(dir);
  if (folder.problems.length) {
    const lines = folder.problems.map((p) => `  ${showProblem(p)}`).join('\n');
    throw usageError(
      `${folder.problems.length} problem${folder.problems.length === 1 ? '' : 's'} in ${dir}:\n${lines}`,
      'Nothing was run; fix the files and run again (`voice test --lint` checks without running).',
    );
  }
  if (!ofKind(folder, 'evals').length && !ofKind(folder, 'simulations').length) throw usageError(`${dir} has no evals (evals/) and no simulations (simulations/tests/): nothing to test.`);
  return folder;
}

interface Platform {
  client: Client;
  uuidOf(kind: string, id: string): string | undefined;
  pollMs: number;
  /** Resolves when a run changed (the in-process platform only). */
  nextChange?: () => Promise<void>;
  close(): Promise<void>;
}

async function localPlatform(dir: string, opts: TestOptions): Promise<Platform> {
  const model = modelConfig(opts as unknown as DevOptions);
  const [{ startEmulator }, { createClient }, gitops] = await Promise.all([import('voice-agent-core/emulator'), import('voice-agent-core/client/node'), import('voice-agent-core/gitops')]);
  // --concurrency bounds the model requests in flight (the load on the developer's model); twice as
  // many simulations play at once, so one busy between its model turns never leaves a slot idle.
  const emu = await startEmulator({ port: 0, model, simulationConcurrency: opts.concurrency * 2, runModelConcurrency: opts.concurrency });
  const client = createClient({ apiKey: 'voice-test', baseUrl: emu.url });
  try {
    // A platform that lives as long as this command: its state is kept in memory, no file.
    const plan = await gitops.plan({ client, dir });
    await gitops.apply({ client, plan });
    const state = plan.state;
    return {
      client,
      uuidOf: (kind, id) => state.sections[kind]?.[id]?.uuid,
      // Woken by every change of a run; the poll is only a safety net.
      pollMs: 500,
      nextChange: () => emu.runs.nextChange(),
      close: () => emu.close(),
    };
  } catch (e) {
    await emu.close();
    if (e instanceof gitops.ApplyError) throw new CliError(`Applying ${dir} to the local platform failed: ${e.message}`, ExitCode.Failure);
    throw e;
  }
}

async function remotePlatform(ctx: Context, dir: string, hosted: boolean): Promise<Platform> {
  const { readState, stateFileName } = await import('voice-agent-core/gitops');
  const s = ctx.settings();
  ctx.requireKey();
  const statePath = join(dir, stateFileName(accountLabel(s.profile, s.baseUrl)));
  const state = readState(statePath);
  return { client: ctx.client(), uuidOf: (kind, id) => state.sections[kind]?.[id]?.uuid, pollMs: hosted ? 2000 : 250, close: () => Promise.resolve() };
}

function missingOnPlatform(folder: TestFolder, platform: Platform): string[] {
  const needed = [...ofKind(folder, 'evals'), ...ofKind(folder, 'simulations')];
  return needed.filter((r) => !platform.uuidOf(r.kind.name, r.id)).map((r) => r.file);
}

/** Runs `voice test` with parsed options; throws CliError for exit codes other than 0. */
export async function runTestCommand(ctx: Context, dir: string, opts: TestOptions): Promise<void> {
  const folder = lintOrExit(dir);
  if (opts.lint) {
    err(`No problems in ${dir}: ${ofKind(folder, 'evals').length} eval(s), ${ofKind(folder, 'simulations').length} simulation(s), ${ofKind(folder, 'simulationSuites').length} suite(s).\n`);
    return;
  }
  const picked = chooseTarget(folder, opts.target);
  if (opts.junit) prepareOutFile(opts.junit, '--junit');
  const remote = Boolean(opts.hosted || opts.apiUrl || opts.local);
  if (remote && (opts.llm || opts.llmReplay || opts.llmRecord))
    throw usageError(
      '--llm options configure the local platform voice test starts; a running platform uses its own model.',
      'Drop --api-url/--local/--hosted, or start `voice dev` with the --llm options.',
    );
  const platform = remote ? await remotePlatform(ctx, dir, Boolean(opts.hosted)) : await localPlatform(dir, opts);
  let report: TestReport;
  try {
    const missing = missingOnPlatform(folder, platform);
    const targetUuid = picked.uuid ?? platform.uuidOf(picked.type === 'squad' ? 'squads' : 'assistants', picked.id as string);
    if (missing.length || !targetUuid) {
      throw usageError(
        `Not on the platform yet: ${[...missing, ...(targetUuid ? [] : [`${picked.type} ${picked.id ?? ''}`])].join(', ')}.`,
        `Apply the folder first: voice apply --dir ${dir}${opts.local ? ' --local' : ''}${opts.apiUrl ? ` --api-url ${opts.apiUrl}` : ''}`,
      );
    }
    const target: TestTarget = { type: picked.type, id: targetUuid, label: picked.id ?? targetUuid };
    const live = process.stderr.isTTY && ctx.output.mode !== 'json';
    if (live) err(`${dim(`Running ${dir} against ${target.type} ${target.label} (${opts.iterations} iteration(s), concurrency ${opts.concurrency})`)}\n`);
    report = await runTests({
      client: platform.client,
      folder,
      uuidOf: platform.uuidOf,
      target,
      iterations: opts.iterations,
      pollMs: platform.pollMs,
      ...(platform.nextChange ? { nextChange: platform.nextChange } : {}),
      ...(opts.filter ? { filter: opts.filter } : {}),
      ...(live ? { onProgress: (p) => err(progressLine(p)) } : {}),
    });
  } finally {
    await platform.close();
  }
  if (opts.junit) writeOutFile(opts.junit, junitXml(report), '--junit');
  if (ctx.output.mode === 'json') printJson(report, ctx.output);
  else out(reportText(report, ctx.output.color));
  err(summaryLine(report));
  if (!report.simulations.length && !report.evals.length) throw usageError(`--filter ${opts.filter ?? ''} matched no eval or simulation in ${dir}.`);
  const reasons = [...report.simulations.flatMap((s) => s.iterations.map((i) => i.reason ?? '')), ...report.evals.map((e) => e.reason ?? '')];
  if (reasons.some((r) => r.includes('No model is configured'))) err(`\nNo model is configured. ${NO_MODEL_REASON}\n`);
  if (!report.ok) throw new CliError('Some evaluations failed (see above).', ExitCode.Failure);
}
