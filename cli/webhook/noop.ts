// What `voice listen` answers when it forwards nothing: for each type that expects an answer,
// the smallest answer the platform accepts that changes nothing it would otherwise do; `{}` for
// the others (the platform ignores their answers). A `voice-request` has no such answer: it is
// answered with the line's raw PCM audio, which only a voice server makes. Silence would pass for
// a voice (the assistant mute while its transcript shows it talking) and JSON for audio, so it gets
// an honest 501 saying there is no voice here: the platform (and `voice dev`, whose call log shows
// the reason) then moves to the voice's fallbackPlan, or ends the call as a failed custom voice.

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
  'call.endpointing.request': () => ({ timeoutSeconds: 1 }),
  'campaign.predial': () => ({ eligible: true }),
};

/** Why a voice-request gets no audio. */
const NO_VOICE = `${WHY}, so there is no voice here: a voice-request is answered with the line's raw 16-bit PCM audio, which only your voice server makes (voice listen --forward-to it)`;

/** A no-op answer: its status and JSON body. */
export interface NoopReply {
  status: number;
  body: unknown;
}

/** The no-op answer to a message. */
export function noopAnswer(message: Obj): NoopReply {
  if (message.type === 'voice-request') return { status: 501, body: { error: NO_VOICE } };
  const make = ANSWERS[String(message.type)];
  return { status: 200, body: make ? make(message) : {} };
}
