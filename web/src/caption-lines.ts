// Captions of a live call: one line per turn from the call's `transcript` messages, a final line
// replacing the partial one of the same speaker, the latest lines kept. Loaded lazily with
// Captions.tsx.

/** One caption line. */
export interface Caption {
  role: 'assistant' | 'user';
  text: string;
  final: boolean;
}

/** Who says a line (not in the spec), shown before it. */
export const CAPTION_LABELS = { assistant: 'Assistant:', user: 'You:' } as const;

/** How many lines are kept (the region scrolls; the latest is always in view). */
export const CAPTION_LINES = 50;

/** The lines after a message: unchanged (the same array) when it is not a transcript. */
export function addCaption(lines: Caption[], message: unknown): Caption[] {
  const m = message as { type?: unknown; role?: unknown; transcript?: unknown; transcriptType?: unknown } | null;
  if (m?.type !== 'transcript' || typeof m.transcript !== 'string' || !m.transcript.trim()) return lines;
  if (m.role !== 'assistant' && m.role !== 'user') return lines;
  const next: Caption = { role: m.role, text: m.transcript, final: m.transcriptType !== 'partial' };
  let open = lines.length - 1;
  while (open >= 0 && (lines[open]!.role !== next.role || lines[open]!.final)) open--;
  const merged = open < 0 ? [...lines, next] : lines.map((line, i) => (i === open ? next : line));
  return merged.slice(-CAPTION_LINES);
}
