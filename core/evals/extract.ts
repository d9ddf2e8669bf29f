// Structured outputs extracted from a conversation: `type: ai` asks the model step for JSON that
// fits the output's schema; `type: regex` reads the transcript without a model. A value that does
// not fit is an error, never a guess.
import type { Json } from '../messages/index.js';
import type { ChatMessage, ModelGateway } from '../model/index.js';
import { parseRegex } from './judge.js';

/** What an extraction gave: the value, or why there is none. */
export type Extraction = { ok: true; value: unknown } | { ok: false; error: string };

/** The transcript lines of a conversation (`AI: ...`, `User: ...`), as the platform's transcripts read. */
export function transcriptOf(messages: readonly ChatMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'user' && m.content) lines.push(`User: ${m.content}`);
    else if (m.role === 'assistant' && m.content) lines.push(`AI: ${m.content}`);
  }
  return lines.join('\n');
}

const DEFAULT_SYSTEM =
  'You extract structured data from a call transcript. Answer with JSON only, no prose and no code fence: ' +
  'a value that fits this JSON Schema.\n\nName: {{structuredOutput.name}}\nDescription: {{structuredOutput.description}}\nSchema: {{structuredOutput.schema}}';

/** Said to the extractor of a voice-mode call: what the written timeline is. */
const TIMELINE_NOTE =
  '\n\nThe call was spoken aloud. Instead of its audio you are given its audio timeline written out: who spoke when (seconds from the start), what was cut off, every silence, pause and interruption, each turn latency, and a summary. Judge timing, interruptions, silences and speech rate from it.';

function render(text: string, output: Json, messages: readonly ChatMessage[], timeline?: string): string {
  const vars: Record<string, string> = {
    // A voice-mode call's transcript is its timeline written out: the local stand-in for its audio.
    transcript: timeline ?? transcriptOf(messages),
    messages: JSON.stringify(messages),
    structuredOutput: JSON.stringify({ name: output.name, description: output.description, schema: output.schema }),
    'structuredOutput.name': String(output.name ?? ''),
    'structuredOutput.description': String(output.description ?? ''),
    'structuredOutput.schema': JSON.stringify(output.schema ?? {}),
  };
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (all, key: string) => vars[key] ?? all);
}

/** Reads JSON from a model's answer (a code fence around it is tolerated). */
export function parseAnswer(text: string): Extraction {
  const body = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false, error: `the model did not answer JSON: ${JSON.stringify(text.slice(0, 200))}` };
  }
}

function byRegex(output: Json, messages: readonly ChatMessage[]): Extraction {
  let re: RegExp;
  try {
    re = parseRegex(String(output.regex ?? ''));
  } catch (e) {
    return { ok: false, error: `the structured output's regex is not valid (${(e as Error).message})` };
  }
  const text = transcriptOf(messages);
  const type = (output.schema as Json | undefined)?.type;
  if (type === 'boolean') return { ok: true, value: re.test(text) };
  if (type === 'array') return { ok: true, value: [...text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))].map((m) => m[1] ?? m[0]) };
  const m = re.exec(text);
  if (!m) return { ok: true, value: null };
  const found = m[1] ?? m[0];
  return { ok: true, value: type === 'number' || type === 'integer' ? Number(found) : found };
}

/** The model the platform extracts with when the output names none (its published default). */
export const DEFAULT_EXTRACTOR: Readonly<Json> = { provider: 'openai', model: 'gpt-4.1' };

/** The model an extraction uses: the output's own, else the target's given, else the platform's default; `timeline`: a voice-mode call's, written out. */
export function extractorOf(output: Json, fallbackModel: Json | undefined, messages: readonly ChatMessage[], timeline?: string): Json {
  // Only the target's provider and model name: its prompt is no extraction prompt.
  const model: Json = output.model ? { ...(output.model as Json) } : fallbackModel ? { provider: fallbackModel.provider, model: fallbackModel.model } : { ...DEFAULT_EXTRACTOR };
  const own = Array.isArray(model.messages) ? (model.messages as Json[]) : [];
  const prompt = own.length
    ? own
    : [
        { role: 'system', content: timeline ? DEFAULT_SYSTEM + TIMELINE_NOTE : DEFAULT_SYSTEM },
        { role: 'user', content: timeline ? 'Call, with its audio timeline:\n{{transcript}}' : 'Transcript:\n{{transcript}}' },
      ];
  return {
    name: `extractor ${String(output.name ?? '')}`.trim(),
    model: { ...model, messages: prompt.map((m) => ({ ...m, content: render(String(m.content ?? ''), output, messages, timeline) })) },
  };
}

/** Extracts one structured output from a conversation (`timeline`: a voice-mode call's, written out, given instead of its transcript). */
export async function extract(
  gateway: ModelGateway | undefined,
  output: Json,
  messages: readonly ChatMessage[],
  fallbackModel: Json | undefined,
  label: string,
  timeline?: string,
): Promise<Extraction> {
  if (output.type === 'regex') return byRegex(output, messages);
  const assistant = extractorOf(output, fallbackModel, messages, timeline);
  if (!gateway?.configured(assistant)) return { ok: false, error: 'no model is configured to extract it' };
  const result = await gateway.step({ assistant, tools: [], messages: [], label });
  if (!result.ok) return { ok: false, error: `the extraction model failed: ${result.message}` };
  return parseAnswer(result.text);
}
