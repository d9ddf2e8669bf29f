// The eval runs of `voice test`: one run per eval against its target, followed until it ends, then
// judged: the platform's verdict, and the eval's latency budgets on the timings its run measured.
import type { Json } from '../messages/index.js';
import { judgeLatency } from './budgets.js';
import type { TestCase } from './cases.js';
import { extensionOf, turnOfMessage } from './extension.js';
import { pause } from './poll.js';
import type { EvalReport, RunTestsOptions, TestTarget } from './runner.js';

function targetBody(target: TestTarget): Json {
  return target.type === 'squad' ? { type: 'squad', squadId: target.id } : { type: 'assistant', assistantId: target.id };
}

/** Why each judged message failed (`judge: { status, failureReason }` in the run's results), one line each. */
function judgeFailures(results: readonly Json[], evalData: Json, turns: ReadonlyMap<number, number>): string | undefined {
  const asked = Array.isArray(evalData.messages) ? (evalData.messages as Json[]) : [];
  const lines: string[] = [];
  for (const r of results) {
    (Array.isArray(r.messages) ? (r.messages as Json[]) : []).forEach((m, i) => {
      const judge = m.judge as Json | undefined;
      if (judge?.status !== 'fail') return;
      const n = i + 1;
      const kind = `${String((asked[i]?.judgePlan as Json | undefined)?.type ?? 'the')} judge`;
      const where = turns.has(n) ? `Turn ${turns.get(n)} (message ${n}, ${kind})` : `Message ${n} (${kind})`;
      lines.push(`${where} failed: ${String(judge.failureReason ?? 'no reason given')}`);
    });
  }
  return lines.length ? lines.join('\n') : undefined;
}

function reasonOf(run: Json, results: readonly Json[], evalData: Json): string {
  // The platform numbers messages; a developer reads turns (turn N is the Nth assistant message).
  const turns = turnOfMessage(evalData);
  if (typeof run.endedMessage === 'string' && run.endedMessage) return run.endedMessage;
  const judged = judgeFailures(results, evalData, turns);
  if (judged) return judged;
  if (run.status !== 'ended') return 'stopped before the run ended';
  return `the run ended with ${String(run.endedReason)} and ${results.map((r) => String(r.status)).join(', ') || 'no results'}`;
}

/** Runs each eval against its target and reports it. */
export async function runEvals(options: RunTestsOptions, picked: readonly { test: TestCase; target: TestTarget; evalId: string }[]): Promise<EvalReport[]> {
  const { client } = options;
  return Promise.all(
    picked.map(async ({ test, target, evalId }) => {
      const started = Date.now();
      // Asked for before each read, so a change between the read and the wait still wakes it.
      let change = options.nextChange?.();
      let run = (await client.eval.run.create({ type: 'eval', evalId, target: targetBody(target) } as never)) as unknown as Json;
      while (run.status !== 'ended' && !options.signal?.aborted) {
        await pause(options.pollMs, change, options.signal);
        change = options.nextChange?.();
        run = (await client.eval.run.get(String(run.id))) as unknown as Json;
      }
      const results = (run.results as Json[] | undefined) ?? [];
      const judged = run.status === 'ended' && run.endedReason === 'mockConversation.done' && results.length > 0 && results.every((r) => r.status === 'pass');
      const ext = extensionOf(test.resource);
      const latency = run.status === 'ended' ? judgeLatency(test.resource.data, ext, options.turnTimings?.(String(run.id)), options.budgets ?? 'auto') : undefined;
      const passed = judged && !latency?.failures.length;
      const reasons = [...(judged ? [] : [reasonOf(run, results, test.resource.data)]), ...(latency?.failures.map((f) => `Latency budget: ${f}`) ?? [])];
      const reason = passed ? undefined : reasons.join('\n');
      options.onProgress?.({ kind: 'eval', eval: test.name, status: passed ? 'pass' : 'fail', ...(reason ? { reason } : {}) });
      return {
        id: test.id,
        file: test.file,
        name: test.name,
        passed,
        verdict: passed ? 'pass' : 'fail',
        ...(reason ? { reason } : {}),
        ms: Date.now() - started,
        ...(test.target ? { target: target.label } : {}),
        ...(ext.source ? { source: ext.source } : {}),
        ...(latency ? { latency } : {}),
      } satisfies EvalReport;
    }),
  );
}
