// The traps of a resource folder's tests, found before anything runs, each with file:line: a
// dangling reference, a chat-run simulation whose evaluations all need audio (voice-mode ones are
// judged on the call's audio timeline), a comparator on a value that is not a primitive, a
// scenario or eval that would judge nothing, a bad regex, a malformed `x-voice` block
// (extension.ts) and a personality's malformed voice mode (voice-mode.ts).
import { existsSync, statSync } from 'node:fs';
import { readProject } from '../gitops/index.js';
import { checkResources } from '../gitops/refs.js';
import type { LocalResource, Problem } from '../gitops/index.js';
import type { Json } from '../messages/index.js';
import { needsAudio } from './audio.js';
import { cannotCompare } from './compare.js';
import { extensionOf, lintExtension } from './extension.js';
import { parseRegex } from './judge.js';
import { VOICE_MODE_PATH, VOICE_TRANSPORT, voiceModeOf } from './voice-mode.js';

/** A folder's resources by kind and file id, with the problems found. */
export interface TestFolder {
  dir: string;
  resources: LocalResource[];
  problems: Problem[];
  warnings: string[];
}

/** The resource of a kind with a file id. */
export function byId(folder: TestFolder, kind: string, id: string): LocalResource | undefined {
  return folder.resources.find((r) => r.kind.name === kind && r.id === id);
}

/** The resources of a kind. */
export function ofKind(folder: TestFolder, kind: string): LocalResource[] {
  return folder.resources.filter((r) => r.kind.name === kind);
}

function at(r: LocalResource, path: (string | number)[], message: string): Problem {
  const where = r.locate(path) ?? r.locate(path.slice(0, -1)) ?? { line: 1, col: 1 };
  return { file: r.file, line: where.line, col: where.col, message };
}

/** Whether every simulation of a scenario runs in voice mode (`x-voice.transport: vapi.websocket`); none runs it: chat, the default. */
function voiceOnly(folder: TestFolder, scenarioId: string): boolean {
  const sims = ofKind(folder, 'simulations').filter((s) => s.data.scenarioId === scenarioId);
  return sims.length > 0 && sims.every((s) => extensionOf(s).transport === VOICE_TRANSPORT);
}

/** The problems of a personality's voice mode (`assistant.metadata.voiceMode`). */
function lintPersonality(r: LocalResource): Problem[] {
  return (voiceModeOf(r.data)?.problems ?? []).map((p) => at(r, [...VOICE_MODE_PATH, ...p.path], `assistant.metadata.${p.message}`));
}

function lintScenario(folder: TestFolder, r: LocalResource): Problem[] {
  const out: Problem[] = [];
  const evaluations = Array.isArray(r.data.evaluations) ? (r.data.evaluations as Json[]) : [];
  if (!evaluations.length) out.push(at(r, ['name'], 'the scenario has no evaluations, so its simulations would judge nothing (add one under evaluations)'));
  const audio: string[] = [];
  for (const [i, e] of evaluations.entries()) {
    const id = typeof e.structuredOutputId === 'string' ? e.structuredOutputId : undefined;
    const output = id ? (byId(folder, 'structuredOutputs', id)?.data as Json | undefined) : (e.structuredOutput as Json | undefined);
    if (!output) continue; // a dangling id is reported by the reference check
    const path = typeof e.path === 'string' && e.path ? e.path : undefined;
    const why = needsAudio(output, path);
    if (why) audio.push(why);
    const problem = cannotCompare(output.schema as Json | undefined, path, e.comparator, e.value);
    if (problem) out.push(at(r, ['evaluations', i, path ? 'path' : 'comparator'], `evaluations[${i}]: ${problem}`));
  }
  // Voice mode judges them on the call's audio timeline; a chat run has the transcript alone.
  if (evaluations.length && audio.length === evaluations.length && !voiceOnly(folder, r.id)) {
    out.push(
      at(
        r,
        ['evaluations'],
        `every evaluation needs audio (${audio[0] as string}), and simulations of this scenario run as chat: nothing would be judged. Run them in voice mode (x-voice.transport: ${VOICE_TRANSPORT} in each simulation file) or add an evaluation a transcript can answer`,
      ),
    );
  }
  return out;
}

function lintEval(r: LocalResource): Problem[] {
  const out: Problem[] = [];
  const messages = Array.isArray(r.data.messages) ? (r.data.messages as Json[]) : [];
  if (!messages.some((m) => m.judgePlan)) out.push(at(r, ['messages'], 'no message has a judgePlan, so the eval would judge nothing'));
  for (const [i, m] of messages.entries()) {
    const plan = m.judgePlan as Json | undefined;
    if (plan?.type === 'regex') {
      try {
        parseRegex(String(plan.content ?? ''));
      } catch (e) {
        out.push(at(r, ['messages', i, 'judgePlan', 'content'], `messages[${i}].judgePlan.content is not a valid regular expression: ${(e as Error).message}`));
      }
    }
    if (plan && !['exact', 'regex', 'ai'].includes(String(plan.type))) out.push(at(r, ['messages', i, 'judgePlan', 'type'], `messages[${i}].judgePlan.type must be exact, regex or ai`));
  }
  return out;
}

/** Reads a folder and lists every problem: the gitops checks (syntax, references) and the test traps. */
export function lintFolder(dir: string): TestFolder {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    return { dir, resources: [], problems: [{ file: dir, message: 'no such directory (pass the resources folder `voice pull` writes)' }], warnings: [] };
  const project = readProject(dir);
  const folder: TestFolder = { dir, resources: project.resources, problems: [...project.problems, ...checkResources(project.resources)], warnings: project.warnings };
  for (const r of ofKind(folder, 'scenarios')) folder.problems.push(...lintScenario(folder, r));
  for (const r of ofKind(folder, 'evals')) folder.problems.push(...lintEval(r));
  for (const r of ofKind(folder, 'personalities')) folder.problems.push(...lintPersonality(r));
  const targets = new Set([...ofKind(folder, 'assistants'), ...ofKind(folder, 'squads')].map((r) => r.id));
  for (const r of [...ofKind(folder, 'evals'), ...ofKind(folder, 'simulations')]) folder.problems.push(...lintExtension(r, targets));
  for (const r of ofKind(folder, 'simulationSuites')) {
    if (!Array.isArray(r.data.simulationIds) || !r.data.simulationIds.length) folder.problems.push(at(r, ['simulationIds'], 'the suite has no simulations'));
  }
  return folder;
}
