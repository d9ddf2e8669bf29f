// `POST /structured-output/run`: extracts a structured output from ended calls' conversations on
// the model step (a `regex` output needs no model). Without a model an `ai` output is refused with
// the reason, never answered with a made-up value.
import type { Json } from '../../messages/index.js';
import { extract } from '../../evals/extract.js';
import { conversationOf } from '../calls/index.js';
import { NO_MODEL_REASON } from '../../evals/reasons.js';
import type { Handler } from '../http/context.js';
import { badRequest, notFound } from '../errors.js';
import type { Rec } from '../store/store.js';
import { check } from '../resources/validate.js';

/** `POST /structured-output/run`: a preview answer by call id, or the values kept on the calls' artifacts. */
export const runStructuredOutput: Handler = async (ctx) => {
  const b = ctx.body;
  // The published schema checked the body's fields; it sets no minimum, but a run over no calls extracts nothing.
  check(b, { callIds: { type: 'array', min: 1 } });
  let output = b.structuredOutput as Json | undefined;
  let outputId = 'preview';
  if (typeof b.structuredOutputId === 'string') {
    output = ctx.store.get('structured-output', b.structuredOutputId);
    if (!output) throw notFound('Structured output');
    outputId = b.structuredOutputId;
  }
  if (!output) throw badRequest(['structuredOutputId or structuredOutput must be provided']);
  const calls = (b.callIds as unknown[]).map(
    (id) =>
      ctx.store.get('call', String(id)) ??
      (() => {
        throw notFound('Call');
      })(),
  );
  const world = ctx.env.runs?.world;
  const results: { call: Rec; result: unknown }[] = [];
  for (const call of calls) {
    const assistant = typeof call.assistantId === 'string' ? world?.assistant({ assistantId: call.assistantId }) : (call.assistant as Json | undefined);
    const got = await extract(world?.gateway, output, conversationOf(call), assistant?.model as Json | undefined, `structured output ${String(output.name ?? outputId)} call ${call.id}`);
    if (!got.ok) {
      const why =
        got.error === 'no model is configured to extract it'
          ? `No model is configured to extract ${String(output.name ?? 'it')}. ${NO_MODEL_REASON}`
          : `Could not extract ${String(output.name ?? 'it')} from call ${call.id}: ${got.error}`;
      throw badRequest([why]);
    }
    results.push({ call, result: got.value });
  }
  const name = String(output.name ?? 'output');
  if (b.previewEnabled === true) {
    const preview: Record<string, unknown> = {};
    for (const r of results) preview[r.call.id] = { name, result: r.result };
    return { status: 201, body: preview };
  }
  for (const { call, result } of results) {
    const artifact = (call.artifact as Json | undefined) ?? {};
    call.artifact = { ...artifact, structuredOutputs: { ...(artifact.structuredOutputs as object | undefined), [outputId]: { name, result } } };
    ctx.store.touch(call);
  }
  return { status: 201, body: { message: `Extracted ${name} from ${calls.length} call(s)` }, changed: true };
};
