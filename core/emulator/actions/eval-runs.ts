// Eval runs: `POST /eval/run` plays a `chat.mockConversation` eval against its target on the
// model step (core/evals) in the background; the run is `running` until every judge has spoken.
// Without a model the run ends at once, failed, with the reason and how to configure one.
import type { Handler } from '../http/context.js';
import { createIn, find } from '../resources/crud.js';
import { badRequest, notFound } from '../errors.js';
import { compileList } from '../resources/lists.js';
import type { Rec } from '../store/store.js';
import { runEval } from '../../evals/eval-run.js';
import type { EvalOutcome } from '../../evals/eval-run.js';
import { NO_MODEL_REASON } from '../../evals/reasons.js';
import { noModelReason, resolveTarget } from '../../evals/types.js';
import { topLevel } from './place.js';

const EVAL_RUNS = { ...topLevel('eval/run'), idParam: 'id' };

function finish(run: Rec, outcome: EvalOutcome, now: number): void {
  Object.assign(run, { status: 'ended', endedReason: outcome.endedReason, results: outcome.results, endedAt: new Date(now).toISOString() });
  if (outcome.endedMessage) run.endedMessage = outcome.endedMessage;
  else delete run.endedMessage;
}

/** A run as the platform shows it: the published EvalRun has no updatedAt. */
function shown(run: Rec): Record<string, unknown> {
  const { updatedAt: _u, ...rest } = run;
  return rest;
}

/** `POST /eval/run`: starts a run of a stored or inline eval against a target. */
export const createEvalRun: Handler = (ctx) => {
  const b = ctx.body;
  let evalDef = b.eval as Record<string, unknown> | undefined;
  if (typeof b.evalId === 'string') {
    evalDef = ctx.store.get('eval', b.evalId);
    if (!evalDef) throw notFound('Eval');
  }
  if (!evalDef) throw badRequest(['evalId or eval must be provided']);
  const { id: _id, orgId: _o, createdAt: _c, updatedAt: _u, ...definition } = evalDef;
  const host = ctx.env.runs;
  const now = Date.now();
  const run = createIn(ctx, EVAL_RUNS, { ...b, eval: definition, status: 'running', results: [], cost: 0, costs: [], endedReason: 'mockConversation.done', startedAt: new Date(now).toISOString() });
  // Decided now, so a run without a model has failed before its create answers.
  const resolved = host ? resolveTarget(host.world, b.target as Record<string, unknown> | undefined) : undefined;
  const parties = resolved && typeof resolved !== 'string' ? resolved.members.slice(0, 1) : [{ model: { provider: 'openai' } }];
  const noModel = host ? noModelReason(host.world, parties, NO_MODEL_REASON) : `No model is configured, so nothing was run or judged. ${NO_MODEL_REASON}`;
  if (!host || noModel) {
    finish(run, { endedReason: 'error', endedMessage: noModel as string, results: [{ status: 'fail', messages: [], startedAt: run.startedAt, endedAt: run.startedAt }] }, now);
    return { status: 201, body: shown(ctx.store.touch(run)), changed: true };
  }
  const store = ctx.store;
  host.track(
    runEval(host.world, definition, b.target as Record<string, unknown> | undefined, `eval ${typeof definition.name === 'string' ? definition.name : String(b.evalId ?? 'inline')}`).then((outcome) => {
      const current = store.get('eval/run', run.id);
      if (!current || current.status === 'ended') return;
      finish(current, outcome, Date.now());
      host.keepTimings(
        String(run.id),
        outcome.judgements.flatMap((j) => (j.firstTokenMs !== undefined ? [{ message: j.index + 1, firstTokenMs: j.firstTokenMs, replayed: j.replayed === true }] : [])),
      );
      store.touch(current);
      host.changed();
    }),
  );
  return { status: 201, body: shown(run), changed: true };
};

/** `GET /eval/run` and `GET /eval/run/{id}`. */
export function evalRunRead(kind: 'list' | 'get', query: readonly string[]): Handler {
  const list = compileList(query, 'paginated');
  if (kind === 'get') return (ctx) => ({ status: 200, body: shown(find(ctx, EVAL_RUNS)) });
  return (ctx) => {
    const page = list(ctx.store.all('eval/run'), ctx.query) as { results: Rec[] };
    return { status: 200, body: { ...page, results: page.results.map(shown) } };
  };
}
