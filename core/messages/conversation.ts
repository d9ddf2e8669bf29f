// A conversation in the platform's three views: its own messages, OpenAI's chat format and a
// plain transcript, plus the artifact that bundles them.
import { frozenCopy, isDeepFrozen } from './frozen.js';
import type { ConversationMessage, Json, OpenAIMessage, RecordingUrls } from './types.js';

/** One message in OpenAI's chat format (undefined for a role it has no place for). */
function formatted(m: ConversationMessage): OpenAIMessage | undefined {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.message };
    case 'user':
      return { role: 'user', content: m.message };
    case 'bot':
      return { role: 'assistant', content: m.message };
    // The published OpenAIMessage has only role and content: a tool call's content is its calls as JSON.
    case 'tool_calls':
      return { role: 'assistant', content: JSON.stringify(m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: c.function }))) };
    case 'tool_call_result':
      return { role: 'tool', content: m.result };
  }
  return undefined;
}

/** A deep-frozen message's formatted twin (null: it has none). */
const formattedOnce = new WeakMap<object, OpenAIMessage | null>();

/** A deep-frozen conversation's formatted twin, frozen too. */
const formattedAll = new WeakMap<object, OpenAIMessage[]>();

/** The conversation in OpenAI's chat format (`messagesOpenAIFormatted`). */
export function openAIFormatted(messages: readonly ConversationMessage[]): OpenAIMessage[] {
  const whole = formattedAll.get(messages);
  if (whole) return whole;
  const out: OpenAIMessage[] = [];
  for (const m of messages) {
    // A deep-frozen message (a load run's) cannot change: its formatted twin is made once, frozen too.
    let f = formattedOnce.get(m);
    if (f === undefined) {
      f = formatted(m) ?? null;
      if (isDeepFrozen(m)) formattedOnce.set(m, f && frozenCopy(f));
    }
    if (f) out.push(f);
  }
  if (isDeepFrozen(messages)) formattedAll.set(messages, frozenCopy(out));
  return out;
}

/** The spoken lines as text, one per turn (`AI: ...`, `User: ...`), as the platform's transcript. */
export function transcriptText(messages: readonly ConversationMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'bot') lines.push(`AI: ${m.message}`);
    else if (m.role === 'user') lines.push(`User: ${m.message}`);
  }
  return lines.join('\n');
}

/** The artifact's recording fields: the mono URL, and the stereo and each side's when known (`recording` and the older flat fields). */
function recordingFields(mono: string, urls: RecordingUrls = {}): Json {
  const { stereo, customer, assistant } = urls;
  return {
    recordingUrl: mono,
    ...(stereo ? { stereoRecordingUrl: stereo } : {}),
    recording: { ...(stereo ? { stereoUrl: stereo } : {}), mono: { combinedUrl: mono, ...(assistant ? { assistantUrl: assistant } : {}), ...(customer ? { customerUrl: customer } : {}) } },
  };
}

/** The call artifact (`Artifact`): messages in both formats, transcript and recording URLs. */
export function artifactOf(messages: readonly ConversationMessage[], recordingUrl?: string, recordingUrls?: RecordingUrls): Json {
  return {
    // A frozen conversation cannot change under the artifact: it is shared, not copied.
    messages: Object.isFrozen(messages) ? messages : [...messages],
    messagesOpenAIFormatted: openAIFormatted(messages),
    transcript: transcriptText(messages),
    ...(recordingUrl ? recordingFields(recordingUrl, recordingUrls) : {}),
  };
}
