// The imported eval as a YAML file a developer reads and edits: a header saying where it came from
// and how to change what is judged, and a comment above each assistant turn with its number and
// what the call did there.
import { Document, isMap, isSeq } from 'yaml';
import type { ImportedEval } from './import-call.js';
import { describeRecorded } from './import-call.js';

const HOW: Record<string, string> = {
  greeting: 'the fixed first message: replayed, not judged',
  tools: 'judged: the tool calls, by name and the arguments under toolCalls (patterns; edit them to allow other values)',
  speech: 'judged by the AI judge against the recorded answer',
  expect: 'judged by the AI judge against what should have happened',
};

/** The eval's file text. */
export function importedYaml(imported: ImportedEval, command: string): string {
  const doc = new Document(imported.data);
  const source = (imported.data['x-voice'] as { source?: Record<string, string> } | undefined)?.source ?? {};
  doc.commentBefore = [
    ` Imported by \`${command}\` from call ${source.callId ?? '(no id)'}${source.startedAt ? ` of ${source.startedAt}` : ''} (${source.from ?? ''}).`,
    ' Each assistant turn (turn N is the Nth assistant message) is judged, then the conversation goes on',
    ' as recorded (continuePlan), so every turn is judged on the history the call had.',
    ' x-voice is read by `voice test` only: the target, this provenance, the recorded turn latencies',
    ' and latency budgets (budget: { firstTokenMs: 1500 }, for all turns or under one of turns).',
  ].join('\n');
  const messages = doc.get('messages', true);
  if (isSeq(messages)) {
    for (const t of imported.turns) {
      const node = messages.items[t.index];
      if (!isMap(node)) continue;
      const said = describeRecorded(t.text, t.calls).replace(/^it /, '');
      node.commentBefore = ` turn ${t.turn}: recorded, the assistant ${said.length > 300 ? `${said.slice(0, 297)}...` : said}\n ${HOW[t.judged] ?? ''}`;
    }
  }
  return doc.toString({ lineWidth: 0, minContentWidth: 0 });
}
