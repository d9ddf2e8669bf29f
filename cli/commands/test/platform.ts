// Where `voice test` runs: the folder checked, the platform (a local one started in this process
// with the folder applied, or a running one whose state file maps the folder's ids) and the
// targets (the default one, and each one a test names for itself).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Client } from 'voice-agent-core/client';
import { showProblem } from '#core/gitops/index';
import type { LocalResource } from '#core/gitops/index';
import { byId, lintFolder, ofKind } from '#core/evals/index';
import type { BudgetMode, TestCase, TestFolder, TestTarget, TurnTiming } from '#core/evals/index';
import type { Context } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import type { DevOptions } from '../dev/options.js';
import { modelConfig } from '../dev/run.js';
import { accountLabel } from '../gitops/common.js';

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
  shard?: { index: number; total: number };
  saveTimes?: boolean;
  list?: boolean;
  budgets?: BudgetMode;
  watch?: boolean;
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

/** Checks the folder (exit 2 with file:line on a problem). */
export function lintOrExit(dir: string): TestFolder {
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

/** Where runs play, and how the folder's ids map onto it. */
export interface Platform {
  client: Client;
  uuidOf(kind: string, id: string): string | undefined;
  pollMs: number;
  /** Resolves when a run changed (the in-process platform only). */
  nextChange?: () => Promise<void>;
  /** An eval run's turn timings (the in-process platform only). */
  turnTimings?: (runId: string) => TurnTiming[] | undefined;
  /** Applies the folder again (the in-process platform, for --watch). */
  reapply?: () => Promise<void>;
  close(): Promise<void>;
}

/** A local platform started in this process, the folder applied. */
export async function localPlatform(dir: string, opts: TestOptions): Promise<Platform> {
  const model = modelConfig(opts as unknown as DevOptions);
  const [{ startEmulator }, { createClient }, gitops] = await Promise.all([import('voice-agent-core/emulator'), import('#core/client/node'), import('#core/gitops/index')]);
  // --concurrency bounds the model requests in flight (the load on the developer's model); twice as
  // many simulations play at once, so one busy between its model turns never leaves a slot idle.
  const emu = await startEmulator({ port: 0, model, simulationConcurrency: opts.concurrency * 2, runModelConcurrency: opts.concurrency });
  const client = createClient({ apiKey: 'voice-test', baseUrl: emu.url });
  try {
    // A platform that lives as long as this command: its state is kept in memory, no file; one
    // that --watch applies again keeps it in a temporary file, so a change updates, not duplicates.
    const statePath = opts.watch ? join(mkdtempSync(join(tmpdir(), 'voice-test-watch-')), 'state.json') : undefined;
    let plan = await gitops.plan({ client, dir, ...(statePath ? { statePath } : {}) });
    await gitops.apply({ client, plan });
    return {
      client,
      uuidOf: (kind, id) => plan.state.sections[kind]?.[id]?.uuid,
      // Woken by every change of a run; the poll is only a safety net.
      pollMs: 500,
      nextChange: () => emu.runs.nextChange(),
      turnTimings: (runId) => emu.runs.turnTimings(runId),
      reapply: async () => {
        const next = await gitops.plan({ client, dir, ...(statePath ? { statePath } : {}) });
        await gitops.apply({ client, plan: next });
        plan = next;
      },
      close: async () => {
        await emu.close();
        if (statePath) rmSync(dirname(statePath), { recursive: true, force: true });
      },
    };
  } catch (e) {
    await emu.close();
    if (e instanceof gitops.ApplyError) throw new CliError(`Applying ${dir} to the local platform failed: ${e.message}`, ExitCode.Failure);
    throw e;
  }
}

/** The running or hosted platform the options name, its ids from the folder's state file. */
export async function remotePlatform(ctx: Context, dir: string, hosted: boolean): Promise<Platform> {
  const { readState, stateFileName } = await import('#core/gitops/index');
  const s = ctx.settings();
  ctx.requireKey();
  const statePath = join(dir, stateFileName(accountLabel(s.profile, s.baseUrl)));
  const state = readState(statePath);
  return { client: ctx.client(), uuidOf: (kind, id) => state.sections[kind]?.[id]?.uuid, pollMs: hosted ? 2000 : 250, close: () => Promise.resolve() };
}

/** The eval and simulation files the platform does not have. */
export function missingOnPlatform(folder: TestFolder, platform: Platform): string[] {
  const needed = [...ofKind(folder, 'evals'), ...ofKind(folder, 'simulations')];
  return needed.filter((r) => !platform.uuidOf(r.kind.name, r.id)).map((r) => r.file);
}

/** The default target and the targets tests name, on the platform; a usage error for one not applied. */
export function platformTargets(
  folder: TestFolder,
  cases: readonly TestCase[],
  platform: Platform,
  opts: TestOptions,
  dir: string,
): { target: TestTarget; targetNamed: (id: string) => TestTarget | undefined } {
  const targetNamed = (id: string): TestTarget | undefined => {
    for (const [kind, type] of [
      ['assistants', 'assistant'],
      ['squads', 'squad'],
    ] as const) {
      const uuid = byId(folder, kind, id) ? platform.uuidOf(kind, id) : undefined;
      if (uuid) return { type, id: uuid, label: id };
    }
    return undefined;
  };
  // A default target is needed only by tests that name none.
  const own = cases.find((c) => c.target)?.target;
  const picked = cases.every((c) => c.target) && own && !opts.target ? { type: 'assistant' as const, id: own } : chooseTarget(folder, opts.target);
  const missing = missingOnPlatform(folder, platform);
  const named = [...new Set(cases.flatMap((c) => (c.target ? [c.target] : [])))].filter((id) => !targetNamed(id));
  const targetUuid = picked.uuid ?? (picked.id ? targetNamed(picked.id)?.id : undefined);
  if (missing.length || !targetUuid || named.length) {
    throw usageError(
      `Not on the platform yet: ${[...missing, ...(targetUuid ? [] : [`${picked.type} ${picked.id ?? ''}`]), ...named.map((n) => `target ${n}`)].join(', ')}.`,
      `Apply the folder first: voice apply --dir ${dir}${opts.local ? ' --local' : ''}${opts.apiUrl ? ` --api-url ${opts.apiUrl}` : ''}`,
    );
  }
  const target = (picked.id ? targetNamed(picked.id) : undefined) ?? { type: picked.type, id: targetUuid, label: picked.id ?? targetUuid };
  return { target, targetNamed };
}
