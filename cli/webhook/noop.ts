// What `voice listen` answers when it forwards nothing: for each type that expects an answer,
// the smallest answer the platform accepts that changes nothing it would otherwise do; `{}` for
// the others (the platform ignores their answers).

type Obj = Record<string, unknown>;

const WHY = 'voice listen has no --forward-to, so nothing chose one';

const ANSWERS: Record<string, (m: Obj) => unknown> = {
  'tool-calls': (m) => ({
    results: (Array.isArray(m.toolCallList) ? m.toolCallList : []).map((c: Obj) => ({
      name: (c.function as Obj | undefined)?.name ?? c.name ?? '',
      toolCallId: c.id ?? '',
      result: '',
    })),
  }),
  'assistant-request': () => ({ error: `${WHY} (no assistant)` }),
  'transfer-destination-request': () => ({ error: `${WHY} (no destination)` }),
  'handoff-destination-request': () => ({ destination: {}, error: `${WHY} (no destination)` }),
  'knowledge-base-request': () => ({ documents: [] }),
  'voice-request': () => ({ data: '' }),
  'call.endpointing.request': () => ({ timeoutSeconds: 1 }),
  'campaign.predial': () => ({ eligible: true }),
};

/** The no-op answer to a message. */
export function noopAnswer(message: Obj): unknown {
  const make = ANSWERS[String(message.type)];
  return make ? make(message) : {};
}
