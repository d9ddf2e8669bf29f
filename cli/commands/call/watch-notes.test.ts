// `voice call watch` shows a call's warnings and errors: live from the emulator's stream (a
// scripted conversation, a model failure), and from an ended call's summary when it was scripted.
import { describe, expect, it } from 'vitest';
import { diffCall, watchLine } from './watch-events.js';
import { streamEvents } from './watch-stream.js';

const seen = () => ({ tools: new Set<string>(), results: new Set<string>() });

describe('voice call watch notes', () => {
  it('turns WARN and ERROR log lines of the stream into note lines, and leaves INFO out', () => {
    const at = '2026-01-01T00:00:00.000Z';
    expect(streamEvents({ kind: 'call.log', at, level: 'INFO', text: 'Call status: ringing' }, seen())).toEqual([]);
    const [error] = streamEvents({ kind: 'call.log', at, level: 'ERROR', text: 'Model failed on turn 1: HTTP 401' }, seen());
    expect(error).toMatchObject({ kind: 'note', level: 'ERROR', text: 'Model failed on turn 1: HTTP 401' });
    const line = watchLine(error as never);
    expect(line.columns).toEqual(['error', 'Model failed on turn 1: HTTP 401']);
    expect(line.json).toEqual({ event: 'note', level: 'ERROR', text: 'Model failed on turn 1: HTTP 401' });
  });

  it("tells an ended scripted call's note before its end", () => {
    const call = { status: 'ended', endedReason: 'customer-ended-call', analysis: { summary: 'Simulated call: 4 spoken turns. No model is configured, so this conversation was scripted. To run...' } };
    const events = diffCall({ turns: 0 }, call);
    expect(events.map((e) => e.kind)).toEqual(['note', 'ended']);
    expect(events[0]).toMatchObject({ text: 'No model is configured, so this conversation was scripted. To run...' });
    expect(diffCall({ turns: 0 }, { ...call, analysis: { summary: 'A real call.' } }).map((e) => e.kind)).toEqual(['ended']);
  });

  it("tells an ended call's note when it ran without sound, and how to turn sound on", () => {
    const summary = 'Simulated call: 4 spoken turns. Audio: audio is off (--no-audio): calls run on the text timeline; start voice dev without --no-audio to give them speech and the timing rules.';
    const [note] = diffCall({ turns: 0 }, { status: 'ended', endedReason: 'customer-ended-call', analysis: { summary } });
    expect(note).toMatchObject({ kind: 'note', level: 'WARN', text: expect.stringMatching(/^Audio: audio is off \(--no-audio\).*without --no-audio/) });
  });
});
