// What `voice load` would send, without a server: one call of each kind (inbound, outbound) run
// through the engine with every message kept instead of posted, the server's answers stood in
// for. The Artillery export writes its flows from these; the bench's reference posts one of them.
import type { Json, ServerMessage } from '../messages/index.js';
import type { ServerTarget } from '../emulator/calls/index.js';
import { runLoad } from './engine.js';
import type { LoadOptions, PostFn } from './types.js';

/** One message as it would be posted, and where to. */
export interface KeptMessage {
  target: ServerTarget;
  message: ServerMessage;
}

/** One call's messages in order; an inbound call begins with `assistant-request`. */
export interface RecordedCall {
  kind: 'inbound' | 'outbound';
  messages: KeptMessage[];
}

/** Plays one inbound and one outbound call of `o` (its schedule and faults left out) and keeps what they send. */
export async function recordCalls(o: LoadOptions): Promise<RecordedCall[]> {
  const byCall = new Map<string, RecordedCall>();
  const post: PostFn = async (_r, target, callId, message) => {
    let call = byCall.get(callId);
    if (!call) byCall.set(callId, (call = { kind: message.type === 'assistant-request' ? 'inbound' : 'outbound', messages: [] }));
    call.messages.push({ target, message });
    const tools = (message.toolCallList as { id: string }[] | undefined) ?? [];
    const answer: Json = message.type === 'assistant-request' ? { assistantId: 'load' } : message.type === 'tool-calls' ? { results: tools.map((c) => ({ toolCallId: c.id, result: 'Done.' })) } : {};
    return { delivery: { id: message.type, callId, type: message.type, url: target.url, sentAt: '', request: { headers: {}, body: { message } }, status: 200, answer, ms: 0 }, answer };
  };
  const { concurrent: _lines, rate: _rate, rampSeconds: _ramp, durationSeconds: _duration, signal: _signal, onProgress: _progress, ...rest } = o;
  await runLoad({ ...rest, calls: 2, inbound: 0.5, faults: [], speed: 1e6, post });
  return [...byCall.values()];
}
