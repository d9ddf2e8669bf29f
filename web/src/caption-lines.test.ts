// Captions: final lines replace partial ones of the same speaker; the last few lines are kept.
import { describe, expect, it } from 'vitest';
import { addCaption, CAPTION_LINES, type Caption } from './caption-lines.js';

const t = (role: string, transcript: string, transcriptType = 'final') => ({ type: 'transcript', role, transcript, transcriptType });

describe('addCaption', () => {
  it('replaces a partial line by its final one, per speaker', () => {
    let lines: Caption[] = [];
    lines = addCaption(lines, t('assistant', 'Hello', 'partial'));
    lines = addCaption(lines, t('user', 'Hi', 'partial'));
    lines = addCaption(lines, t('assistant', 'Hello Ada, how can I help?'));
    expect(lines).toEqual([
      { role: 'assistant', text: 'Hello Ada, how can I help?', final: true },
      { role: 'user', text: 'Hi', final: false },
    ]);
    lines = addCaption(lines, t('user', 'Hi there'));
    expect(lines.map((line) => line.text)).toEqual(['Hello Ada, how can I help?', 'Hi there']);
  });

  it(`keeps the last ${CAPTION_LINES} lines`, () => {
    let lines: Caption[] = [];
    for (let i = 1; i <= CAPTION_LINES + 2; i++) lines = addCaption(lines, t(i % 2 ? 'assistant' : 'user', `line ${i}`));
    expect(lines).toHaveLength(CAPTION_LINES);
    expect(lines[0]?.text).toBe('line 3');
    expect(lines.at(-1)?.text).toBe(`line ${CAPTION_LINES + 2}`);
  });

  it('ignores anything that is not a transcript line of the assistant or the prospect', () => {
    const lines: Caption[] = [];
    for (const message of [null, 'listening', { type: 'status-update', status: 'ended' }, t('assistant', '   '), t('tool', 'x'), { type: 'transcript', role: 'assistant' }]) {
      expect(addCaption(lines, message)).toBe(lines);
    }
  });
});
