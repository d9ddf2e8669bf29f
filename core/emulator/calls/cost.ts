// What a simulated call would have cost, itemised like the platform's `costs` and
// `costBreakdown` (made-up but plausible per-minute rates; no money is involved).
import type { ConversationMessage, Json } from '../../messages/index.js';

const RATE = { transport: 0.01, stt: 0.01, tts: 0.036, vapi: 0.05 };

/** `cost`, `costs` and `costBreakdown` for a call of `seconds` with this conversation. */
export function costOf(seconds: number, messages: readonly ConversationMessage[], assistant: Json | undefined, transportProvider: string): { cost: number; costs: Json[]; costBreakdown: Json } {
  const minutes = Math.round((seconds / 60) * 10_000) / 10_000;
  const spoken = messages.filter((m) => m.role === 'bot').reduce((n, m) => n + (m as { message: string }).message.length, 0);
  const heard = messages.filter((m) => m.role === 'user').reduce((n, m) => n + (m as { message: string }).message.length, 0);
  const promptTokens = Math.ceil((spoken + heard) / 4) * Math.max(1, messages.length);
  const completionTokens = Math.ceil(spoken / 4);
  const round = (n: number): number => Math.round(n * 10_000) / 10_000;
  const transport = round(minutes * RATE.transport);
  const stt = round(minutes * RATE.stt);
  const llm = round((promptTokens * 0.15 + completionTokens * 0.6) / 1_000_000);
  const tts = round(minutes * RATE.tts);
  const vapi = round(minutes * RATE.vapi);
  const total = round(transport + stt + llm + tts + vapi);
  const model = (assistant?.model as Json | undefined) ?? { provider: 'openai', model: 'gpt-4o-mini' };
  const costs: Json[] = [
    { type: 'transport', provider: transportProvider, minutes, cost: transport },
    { type: 'transcriber', transcriber: (assistant?.transcriber as Json | undefined) ?? { provider: 'deepgram', model: 'nova-2' }, minutes, cost: stt },
    { type: 'model', model: { provider: model.provider, model: model.model }, promptTokens, completionTokens, cost: llm },
    { type: 'voice', voice: (assistant?.voice as Json | undefined) ?? { provider: 'vapi', voiceId: 'Elliot' }, characters: spoken, cost: tts },
    { type: 'vapi', subType: 'normal', minutes, cost: vapi },
  ];
  return { cost: total, costs, costBreakdown: { transport, stt, llm, tts, vapi, total, llmPromptTokens: promptTokens, llmCompletionTokens: completionTokens, ttsCharacters: spoken } };
}
