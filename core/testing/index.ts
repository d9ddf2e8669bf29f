// Evals, simulations and structured-output runs on top of the model step, for the emulator's run
// endpoints and `voice test`. Node-only (it reaches the developer's servers through its host).
export type { World, Target, Resolved } from './types.js';
export { resolveTarget, noModelReason } from './types.js';
export { NO_MODEL_REASON } from './reasons.js';
export { COMPARATORS, compare, cannotCompare, schemaAt, valueAt, primitiveType } from './compare.js';
export type { Comparator, Primitive } from './compare.js';
export { parseRegex, judgeExact, judgeRegex, judgeAI, judgeToolCalls } from './judge.js';
export type { Verdict } from './judge.js';
export { extract, transcriptOf, parseAnswer } from './extract.js';
export type { Extraction } from './extract.js';
export { needsAudio, AUDIO_WORDS } from './audio.js';
export { playDialogue, testerOf, DEFAULT_MAX_TURNS } from './dialogue.js';
export type { Dialogue, DialogueInput, ToolMock } from './dialogue.js';
export { runItem, evaluate, verdictOf } from './simulate.js';
export type { ItemInput, ItemOutcome, EvaluationResult } from './simulate.js';
export { runEval } from './eval-run.js';
export type { EvalOutcome, Judgement } from './eval-run.js';
export { Limiter } from './limit.js';
export { lintFolder, byId, ofKind } from './lint.js';
export type { TestFolder } from './lint.js';
export { runTests } from './runner.js';
export type { RunTestsOptions, TestReport, TestTarget, SimulationReport, EvalReport, IterationReport, Progress } from './runner.js';
