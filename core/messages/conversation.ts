// A conversation in the platform's three views: its own messages, OpenAI's chat format and a
// plain transcript, plus the artifact that bundles them.
import type { ConversationMessage, Json, OpenAIMessage } from './types.js';

/** The conversation in OpenAI's chat format (`messagesOpenAIFormatted`). */
export function openAIFormatted(messages: readonly ConversationMessage[]): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        out.push({ role: 'system', content: m.message });
        break;
      case 'user':
        out.push({ role: 'user', content: m.message });
        break;
      case 'bot':
        out.push({ role: 'assistant', content: m.message });
        break;
      // The published OpenAIMessage has only role and content: a tool call's content is its calls as JSON.
      case 'tool_calls':
        out.push({ role: 'assistant', content: JSON.stringify(m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: c.function }))) });
        break;
      case 'tool_call_result':
        out.push({ role: 'tool', content: m.result });
        break;
    }
  }
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

/** The call artifact (`Artifact`): messages in both formats, transcript and recording URL. */
export function artifactOf(messages: readonly ConversationMessage[], recordingUrl?: string): Json {
  return {
    messages: [...messages],
    messagesOpenAIFormatted: openAIFormatted(messages),
    transcript: transcriptText(messages),
    ...(recordingUrl ? { recordingUrl, recording: { mono: { combinedUrl: recordingUrl } } } : {}),
  };
}
