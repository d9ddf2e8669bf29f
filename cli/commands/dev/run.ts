// Starting and stopping `voice dev` (shared by `voice dev` and `voice dev exec`): the emulator
// (loaded only now), the imported snapshot, the applied folder, the ready file, and the export
// written when it stops.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Emulator, ModelConfig } from 'voice-agent-core/emulator';
import { cassetteProblem } from 'voice-agent-core/model';
import { writeFileAtomic } from '#core/fs/locked-json';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { addSecret } from '../../redact.js';
import { inspectorDir } from '../../inspector-dir.js';
import { accountLabel } from '../gitops/common.js';
import type { DevIo, DevOptions } from './options.js';

/** A started `voice dev`. */
export interface RunningDev {
  emu: Emulator;
  /** The key clients send (the one required, or any). */
  key: string;
  /** The inspector page's folder when it is served. */
  inspector: string | undefined;
  /** Stops the emulator and writes `--export-on-exit`; never throws (reports on stderr). */
  stop(): Promise<void>;
}

/** The first of the next few ports that can be listened on now (checked by listening), if any. */
async function freePortAfter(port: number, host: string): Promise<number | undefined> {
  for (let p = port + 1; p <= Math.min(port + 20, 65535); p++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(p, host, () => probe.close(() => resolve(true)));
    });
    if (free) return p;
  }
  return undefined;
}

async function listenError(error: unknown, opts: DevOptions): Promise<never> {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    const free = await freePortAfter(opts.port, opts.host);
    throw new CliError(
      `Port ${opts.port} on ${opts.host} is already in use.`,
      ExitCode.Failure,
      `Stop whatever uses it, or pick another port with --port${free ? `: ${free} is free, voice dev --port ${free}` : ''}`,
    );
  }
  if (code === 'EACCES') throw new CliError(`Not allowed to listen on port ${opts.port}.`, ExitCode.Failure, 'Pick a port above 1023 with --port.');
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    throw usageError(`Cannot listen on host ${opts.host}: no such local address.`, 'Use --host 127.0.0.1 (the default) or an address of this machine.');
  throw error;
}

async function applyFolder(emu: Emulator, dir: string, stateDir: string, key: string, profile: string, io: DevIo): Promise<void> {
  const { plan, apply, readState, stateFileName, GitopsInputError, ApplyError } = await import('#core/gitops/index');
  const { createClient } = await import('#core/client/node');
  const client = createClient({ baseUrl: emu.url, apiKey: key });
  // The state file `voice plan`/`voice apply` would use against this URL, so they find the same UUIDs.
  const statePath = join(stateDir, stateFileName(accountLabel(profile, emu.url)));
  try {
    const p = await plan({ client, dir, statePath });
    for (const w of p.warnings) io.err(`note: ${w}\n`);
    await apply({ client, plan: p });
  } catch (e) {
    if (e instanceof GitopsInputError) throw usageError(`--apply ${dir}: ${e.message}`, 'Fix the files (voice plan --dir DIR shows what is wrong) and start again.');
    if (e instanceof ApplyError) throw new CliError(`--apply ${dir}: ${e.message}`, ExitCode.Failure);
    throw e;
  }
  const state = await readState(statePath);
  const applied: Record<string, Record<string, string>> = {};
  for (const [kind, entries] of Object.entries(state.sections)) applied[kind] = Object.fromEntries(Object.entries(entries).map(([id, e]) => [id, e.uuid]));
  emu.states.applied = applied;
  io.err(`  Applied ${dir} (map: ${emu.url}/__voice/applied):\n`);
  for (const [kind, ids] of Object.entries(applied)) for (const [id, uuid] of Object.entries(ids)) io.err(`    ${kind}/${id} -> ${uuid}\n`);
}

/** The model configuration `--llm*` give (and VOICE_LLM_KEY); throws a usage error for a combination that cannot work. */
export function modelConfig(opts: DevOptions, env: NodeJS.ProcessEnv = process.env): ModelConfig {
  if (opts.llmRecord && opts.llmReplay)
    throw usageError('--llm-record and --llm-replay both say where model answers come from; pass one.', 'Record once with --llm URL --llm-record FILE, then replay in CI with --llm-replay FILE.');
  if (opts.llmReplay && !existsSync(opts.llmReplay)) throw usageError(`--llm-replay ${opts.llmReplay}: no such file.`, 'Record one first: voice dev --llm URL --llm-record FILE.');
  if (opts.llmReplay) {
    const problem = statSync(opts.llmReplay).isFile() ? cassetteProblem(readFileSync(opts.llmReplay, 'utf8')) : 'is a folder, not a model cassette';
    if (problem) throw usageError(`--llm-replay ${opts.llmReplay} ${problem}.`, 'Give a file written by voice dev --llm URL --llm-record FILE.');
  }
  if (opts.llmReplay && opts.llm)
    throw usageError(
      '--llm and --llm-replay both say where model answers come from; a replay calls no model.',
      'Drop --llm to replay, or --llm-replay to call the model (add --llm-record FILE to record).',
    );
  if (opts.llmRecord && !existsSync(dirname(resolve(opts.llmRecord)))) throw usageError(`--llm-record ${opts.llmRecord}: the folder ${dirname(resolve(opts.llmRecord))} does not exist.`);
  if (opts.llmModel?.length && !opts.llm && !opts.llmReplay)
    throw usageError('--llm-model names a model of the endpoint --llm gives; pass --llm URL too.', 'e.g. voice dev --llm http://127.0.0.1:11434/v1 --llm-model llama3.2');
  const names = opts.llmModel ?? [];
  const pairs = names.filter((n) => n.includes('='));
  if (pairs.length && pairs.length !== names.length)
    throw usageError(
      '--llm-model takes one model name, or provider/model=NAME pairs; not both.',
      'e.g. --llm-model llama3.2, or --llm-model openai/gpt-4o-mini=llama3.2 --llm-model anthropic/claude-3-5-haiku=qwen2.5',
    );
  if (!pairs.length && names.length > 1) throw usageError(`--llm-model was given ${names.length} names; give one, or map assistant models with provider/model=NAME.`);
  const model = pairs.length ? Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)])) : names[0];
  const apiKey = opts.llmKey ?? (env.VOICE_LLM_KEY?.trim() || undefined);
  // A model endpoint's error may echo the key: it is masked in whatever the CLI prints.
  addSecret(apiKey);
  return {
    ...(opts.llm ? { url: opts.llm } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(model ? { model } : {}),
    ...(opts.llmRecord ? { record: opts.llmRecord } : {}),
    ...(opts.llmReplay ? { replay: opts.llmReplay } : {}),
  };
}

/** How a start differs for `voice dev exec`. */
export interface StartDevMode {
  /**
   * The emulator is thrown away at the end (exec): `--apply`'s state file, named after its random
   * port, goes to a temporary folder removed on stop instead of the user's folder.
   */
  throwaway?: boolean;
}

/** Starts the emulator as the options say; the caller prints the banner and waits. */
export async function startDev(opts: DevOptions, apiKey: string | undefined, io: DevIo, profile: string, mode: StartDevMode = {}): Promise<RunningDev> {
  const { startEmulator, DataFileError, DataFileInUseError, loadScenario, ScenarioError, loadDataFile } = await import('voice-agent-core/emulator');
  if (opts.import && opts.data) throw usageError('--import and --data both say where the data starts from; pass one.', 'Use --import FILE --export-on-exit FILE to start from and save to a file.');
  const log = opts.quiet ? undefined : (l: { method: string; path: string; status: number; ms: number }) => io.err(`${l.method} ${l.path} ${l.status} ${l.ms.toFixed(1)} ms\n`);
  const onDelivery = opts.quiet ? undefined : (d: Parameters<typeof deliveryLine>[0]) => io.err(deliveryLine(d));
  let scenario: Awaited<ReturnType<typeof loadScenario>> | undefined;
  let initial: Awaited<ReturnType<typeof loadDataFile>>;
  try {
    if (opts.scenario) scenario = await loadScenario(opts.scenario);
    if (opts.import) {
      initial = await loadDataFile(opts.import);
      if (!initial) throw usageError(`--import ${opts.import}: no such file (or it is empty).`, 'Write one with --export-on-exit FILE.');
    }
  } catch (error) {
    if (error instanceof ScenarioError) throw usageError(error.message, 'See "Develop your server locally" in docs/local-platform.md for the scenario format.');
    if (error instanceof DataFileError) throw usageError(`--import: ${error.message}`);
    throw error;
  }
  const model = modelConfig(opts);
  let emu: Emulator;
  const inspector = opts.inspector === false ? undefined : inspectorDir();
  try {
    emu = await startEmulator({
      port: opts.port,
      host: opts.host,
      dataFile: opts.data,
      apiKey,
      seed: opts.seed,
      log,
      corsOrigins: opts.corsOrigin ?? [],
      onDelivery,
      speed: opts.speed,
      keepEndedCalls: opts.keepCalls,
      scenario,
      ...(opts.storageDir ? { storageDir: opts.storageDir } : {}),
      initial,
      inspectorDir: inspector,
      model,
      preload: true,
      audio: opts.audio !== false,
    });
  } catch (error) {
    if (error instanceof DataFileInUseError) {
      throw usageError(
        `--data ${opts.data}: the file is in use by another running \`voice dev\` (or emulator); two at once would overwrite each other's changes.`,
        'Stop the other one, or give this one its own file, e.g. `voice dev --data other.json` (or no --data to keep data in memory).',
      );
    }
    if (error instanceof DataFileError) throw usageError(error.message);
    return listenError(error, opts);
  }
  const key = apiKey ?? 'any-key';
  let tempState: string | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await emu.close().catch((e: unknown) => io.err(`Could not stop the emulator cleanly: ${(e as Error).message}\n`));
      // After closing: calls still running have ended (manually-canceled), as the platform would record them.
      if (opts.exportOnExit) {
        const snapshot = emu.states.export();
        // Temp file, fsync, rename: a reader (or a kill mid-write) never sees half a file.
        await writeFileAtomic(opts.exportOnExit, JSON.stringify(snapshot, null, 2)).then(
          () => io.err(`Exported the emulator's state to ${opts.exportOnExit}\n`),
          (e: unknown) => io.err(`Could not write --export-on-exit ${opts.exportOnExit}: ${(e as Error).message}\n`),
        );
      }
      if (tempState) await rm(tempState, { recursive: true, force: true }).catch(() => undefined);
    })());
  try {
    if (opts.apply) {
      if (mode.throwaway) tempState = await mkdtemp(join(tmpdir(), 'voice-dev-exec-'));
      await applyFolder(emu, opts.apply, tempState ?? opts.apply, key, profile, io);
    }
    // The starting state a reset returns to: imported, seeded and applied.
    emu.states.markStart();
    await answers(emu.url);
    if (opts.readyFile) await writeFileAtomic(opts.readyFile, `${emu.url}\n`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { emu, key, inspector, stop };
}

/** Resolves once the emulator answers its health endpoint (the port is open and serving). */
async function answers(url: string): Promise<void> {
  const res = await fetch(`${url}/__voice/health`);
  await res.arrayBuffer();
  if (!res.ok) throw new CliError(`The emulator did not answer its health check (HTTP ${res.status}).`);
}

/** One stderr line per delivery: time, call, type, URL, status, milliseconds. */
export function deliveryLine(d: { sentAt: string; callId: string; type: string; url: string; status?: number; error?: string; ms: number }): string {
  const outcome = d.status !== undefined ? String(d.status) : 'no answer';
  const why = d.error ? ` (${d.error})` : '';
  return `${d.sentAt.slice(11, 23)} call ${d.callId.slice(0, 8)} ${d.type} -> ${d.url} ${outcome}${why} ${d.ms.toFixed(0)} ms\n`;
}
