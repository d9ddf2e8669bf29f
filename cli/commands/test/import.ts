// `voice test import <call-id|file> [dir]`: a call that went wrong becomes an eval that replays it
// (core/evals/import-call.ts), written into the resources folder as editable YAML, checked
// against the platform's eval schema and voice test's lint before it is written.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { kindNamed, parseResource, readState, schemaProblems, showProblem } from '#core/gitops/index';
import type { Kind } from '#core/gitops/index';
import type { Json } from '#core/messages/index';
import { evalFromCall, importedYaml, lintExtension, lintFolder, ofKind, recordedCallOf, recordedCallsIn, DEFAULT_JUDGE_MODEL } from '#core/evals/index';
import type { Budget, ImportedEval, ImportOptions, RecordedCall, TestFolder } from '#core/evals/index';
import { contextOf } from '../../context.js';
import { sharedOpts } from './shared.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { printJson } from '../../output/print.js';
import { err, out } from '../../redact.js';

interface ImportFlags {
  loose?: boolean;
  expect: string[];
  as?: string;
  target?: string;
  call?: string;
  force?: boolean;
  firstTokenBudget?: number;
  turnBudget?: number;
  local?: boolean;
}

function expectFlag(value: string, previous: string[] = []): string[] {
  if (!/^\s*\d+\s*:\s*\S/.test(value)) throw new InvalidArgumentError('expected "TURN: what should happen", e.g. "2: books the Tuesday the caller asked for".');
  return [...previous, value];
}

function msFlag(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number of milliseconds.');
  return n;
}

/** The call a file holds; `pick` chooses among several. */
function callFromFile(path: string, pick: string | undefined): RecordedCall {
  const calls = recordedCallsIn(readFileSync(path, 'utf8'));
  if (typeof calls === 'string') throw usageError(`${path}: ${calls}.`);
  const chosen = pick ? calls.filter((c) => c.id === pick) : calls;
  const ids = [...new Set(calls.map((c) => c.id ?? '(no id)'))];
  if (!chosen.length) throw usageError(`${path} has no call ${pick ?? ''}; it has ${ids.join(', ')}.`);
  if (new Set(chosen.map((c) => c.id)).size > 1) throw usageError(`${path} holds ${ids.length} calls (${ids.join(', ')}): say which with --call ID.`);
  // A record file may hold the same call's report twice (a retry): the last is the latest.
  return chosen.at(-1) as RecordedCall;
}

async function callFromPlatform(ctx: Context, id: string): Promise<{ call: RecordedCall; from: string }> {
  ctx.requireKey();
  const s = ctx.settings();
  const record = (await ctx.client().call.get(id)) as unknown as Json;
  const from = `${ctx.opts.local ? 'voice dev' : 'the platform'} at ${s.baseUrl}`;
  if (record.status !== undefined && record.status !== 'ended') throw new CliError(`Call ${id} is ${String(record.status)}: import it once it has ended.`, ExitCode.Failure);
  const call = recordedCallOf(record);
  if (!call) throw new CliError(`Call ${id} on ${s.baseUrl} has no recorded conversation (artifact.messages) to import.`, ExitCode.Failure);
  return { call, from };
}

/** The assistant or squad file id of the call's assistant: by UUID in the folder's state files, else by name. */
function targetFor(dir: string, folder: TestFolder | undefined, call: RecordedCall): string | undefined {
  const uuid = call.squadId ?? call.assistantId;
  if (uuid && existsSync(dir)) {
    for (const name of readdirSync(dir).filter((n) => n.startsWith('.voice-state.') && n.endsWith('.json'))) {
      const state = readState(join(dir, name));
      for (const kind of ['assistants', 'squads'])
        for (const [id, entry] of Object.entries(state.sections[kind] ?? {})) if (entry.uuid === uuid && folder?.resources.some((r) => r.kind.name === kind && r.id === id)) return id;
    }
  }
  const name = call.assistant?.name;
  return folder && typeof name === 'string' ? ofKind(folder, 'assistants').find((r) => r.data.name === name)?.id : undefined;
}

function expectations(flags: readonly string[]): Map<number, string> {
  return new Map(
    flags.map((f) => {
      const at = f.indexOf(':');
      return [Number(f.slice(0, at).trim()), f.slice(at + 1).trim()];
    }),
  );
}

/** The file's problems: the platform's eval schema and voice test's lint of its block. */
async function checked(kind: Kind, id: string, file: string, text: string, targets: ReadonlySet<string>): Promise<string[]> {
  const parsed = parseResource(kind, id, file, text);
  if (!parsed.resource) return parsed.problems.map(showProblem);
  return [...(await schemaProblems([parsed.resource])), ...lintExtension(parsed.resource, targets)].map(showProblem);
}

async function runImport(ctx: Context, source: string, dir: string, flags: ImportFlags): Promise<void> {
  const isFile = existsSync(source) && statSync(source).isFile();
  if (!isFile && /[/\\]|\.(json|jsonl|ya?ml)$/i.test(source)) throw usageError(`${source}: no such file.`, 'Pass a call id, or the JSON `voice call get --json` or `voice listen --record` wrote.');
  const { call, from } = isFile ? { call: callFromFile(source, flags.call), from: `file ${source}` } : await callFromPlatform(ctx, source);
  const folder = existsSync(dir) ? lintFolder(dir) : undefined;
  const targets = new Set([...(folder ? [...ofKind(folder, 'assistants'), ...ofKind(folder, 'squads')] : [])].map((r) => r.id));
  const target = flags.target ?? targetFor(dir, folder, call);
  if (flags.target && !targets.has(flags.target)) throw usageError(`--target ${flags.target}: no assistant or squad file with that id in ${dir}.`);
  const budget: Budget = { ...(flags.firstTokenBudget ? { firstTokenMs: flags.firstTokenBudget } : {}), ...(flags.turnBudget ? { turnMs: flags.turnBudget } : {}) };
  const options: ImportOptions = { ...(flags.loose ? { loose: true } : {}), expect: expectations(flags.expect), ...(target ? { target } : {}), from, importedAt: new Date(), budget };
  let imported: ImportedEval = evalFromCall(call, options);
  const judged = imported.turns.filter((t) => t.judged !== 'greeting').map((t) => t.turn);
  const wrong = [...(options.expect?.keys() ?? [])].filter((n) => !judged.includes(n));
  if (wrong.length) throw usageError(`--expect ${wrong.join(', ')}: the call's judged turns are ${judged.join(', ') || 'none'} (turn N is the Nth assistant message).`);
  const id = flags.as ?? `call-${(call.id ?? 'recorded').slice(0, 8)}`;
  const file = `evals/${id}.yml`;
  const path = join(dir, ...file.split('/'));
  if (existsSync(path) && !flags.force) throw usageError(`${path} exists.`, 'Name another file with --as NAME, or replace it with --force.');
  const kind = kindNamed('evals') as Kind;
  const command = `voice test import ${isFile ? source : (call.id ?? source)}`;
  let text = importedYaml(imported, command);
  let problems = await checked(kind, id, file, text, targets);
  if (problems.some((p) => p.includes('judgePlan.model'))) {
    // The assistant's model is no judge model the platform takes: the judge uses a default one.
    imported = evalFromCall(call, { ...options, judgeModel: { ...DEFAULT_JUDGE_MODEL } });
    imported.notes.push(`the AI judge runs on ${DEFAULT_JUDGE_MODEL.provider}/${DEFAULT_JUDGE_MODEL.model}: the assistant's model is not one a judge plan accepts`);
    text = importedYaml(imported, command);
    problems = await checked(kind, id, file, text, targets);
  }
  if (problems.length) throw new CliError(`The imported eval would not be valid:\n${problems.map((p) => `  ${p}`).join('\n')}`, ExitCode.Failure);
  mkdirSync(join(dir, 'evals'), { recursive: true });
  writeFileSync(path, text);
  const summary = {
    file: path,
    callId: call.id,
    from,
    target: target ?? null,
    turns: imported.turns.map(({ turn, judged: how, text: said, calls, expect }) => ({ turn, judged: how, said, calls, ...(expect ? { expect } : {}) })),
    notes: imported.notes,
  };
  if (ctx.output.mode === 'json') return printJson(summary, ctx.output);
  const lines = imported.turns.map((t) => {
    const how = {
      greeting: 'replayed (the fixed first message)',
      tools: `tool calls judged${flags.loose ? ' by name' : ' by name and arguments'}`,
      speech: 'judged by the AI judge',
      expect: `judged by the AI judge: ${t.expect ?? ''}`,
    }[t.judged];
    const did = t.calls.length ? t.calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(', ') : JSON.stringify(t.text);
    return `  turn ${t.turn}  ${how}: ${did.length > 100 ? `${did.slice(0, 97)}...` : did}\n`;
  });
  out(`Wrote ${path}: call ${call.id ?? '(no id)'} (${from}), ${imported.turns.length} assistant turn(s)${target ? `, target ${target}` : ''}\n${lines.join('')}`);
  for (const n of imported.notes) err(`Note: ${n}\n`);
  if (!target) err(`Note: the test runs against the folder's default target (name one with --target, or x-voice.target in the file).\n`);
  err(`Run it: voice test ${dir} --filter ${id}\n`);
}

/** The `test import` command. */
export function testImportCommand(): Command {
  return new Command('import')
    .description("Turn a call into an eval that replays it: the caller's words, the recorded tool results mocked, each assistant turn judged against the recording")
    .argument(
      '<call-id|file>',
      'a call id (on the platform of the profile, or `voice dev` with --local), or a file: `voice call get --json` output, an end-of-call report, `voice listen --record` lines',
    )
    .argument('[dir]', 'the resources folder to write into (evals/)', 'resources')
    .option('--loose', 'judge tool calls by name only, not their arguments')
    .option('--expect <turn: text>', 'what should have happened at a turn instead of what the call did (repeatable); that turn is judged by the AI judge against it', expectFlag, [])
    .option('--as <id>', 'the file id (evals/ID.yml; default call-<first 8 characters of the call id>)')
    .option('--target <id>', "the assistant or squad file the test runs against (default: the call's, found by its id in the folder's state files or by name)")
    .option('--call <id>', 'the call to take from a file holding several')
    .option('--first-token-budget <ms>', "fail a turn whose model's first token comes later than this", msFlag)
    .option('--turn-budget <ms>', 'a whole-turn budget (judged only where a run has an audio loop)', msFlag)
    .option('--force', 'replace the file when it exists')
    .addHelpText(
      'after',
      `
Turn N is the Nth assistant message of the call. A fixed first message is replayed, not judged.
Every judged turn then continues as recorded, so each turn is judged on the history the call had.

Examples:
  $ voice test import 5b1c2d3e-8f90-4a1b-9c2d-3e4f5a6b7c8d             # hosted, with the profile's key
  $ voice test import 5b1c2d3e-8f90-4a1b-9c2d-3e4f5a6b7c8d --local     # a call on voice dev
  $ voice test import call.json --expect "2: books Tuesday, the day the caller asked for"
  $ voice listen --record calls.jsonl   # then: voice test import calls.jsonl --call ID
`,
    )
    .action(async (source: string, dir: string, _o: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      await runImport(ctx, source, dir, sharedOpts<ImportFlags>(cmd, ['target']));
    });
}
