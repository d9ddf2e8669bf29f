import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { ttyView, viewOf } from '../output/format.js';
import type { View } from '../output/format.js';
import { displayWidth, fitWidths, truncate } from './cells.js';
import { KeyValue } from './KeyValue.js';
import { renderView } from './render.js';
import { Table } from './Table.js';

const strip = (s: string): string => s.replace(new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g'), '');

describe('Table', () => {
  it('draws a header and aligned rows', () => {
    const { lastFrame } = render(
      <Table
        headers={['ID', 'NAME']}
        rows={[
          ['a1', 'Front desk'],
          ['b22', 'Sales'],
        ]}
        width={80}
      />,
    );
    expect(strip(lastFrame() ?? '').split('\n')).toEqual(['ID   NAME', 'a1   Front desk', 'b22  Sales']);
  });

  it('cuts the widest column with an ellipsis to fit the width', () => {
    const { lastFrame } = render(<Table headers={['ID', 'NAME']} rows={[['id-1', 'n'.repeat(100)]]} width={30} />);
    const lines = strip(lastFrame() ?? '').split('\n');
    expect(lines[1]).toMatch(/^id-1 {2}n+…$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(30);
  });
});

describe('KeyValue', () => {
  it('aligns keys and cuts long values', () => {
    const { lastFrame } = render(
      <KeyValue
        entries={[
          ['id', 'a1'],
          ['name', 'x'.repeat(80)],
        ]}
        width={40}
      />,
    );
    const lines = strip(lastFrame() ?? '').split('\n');
    expect(lines[0]).toBe('id    a1');
    expect(lines[1]).toMatch(/^name {2}x+…$/);
    expect(lines[1]?.length).toBe(40);
  });
});

describe('renderView', () => {
  it('renders a call list with its columns and relative times', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    const calls = [{ id: 'c1', type: 'webCall', status: 'ended', endedReason: 'customer-ended-call', cost: 0.125, createdAt: new Date(now - 3 * 60_000).toISOString() }];
    const text = strip(renderView(ttyView(viewOf(calls, ['call']) as Exclude<View, { kind: 'text' }>, now), { width: 120 }));
    expect(text).toMatch(/^ID\s+TYPE\s+STATUS\s+ENDED REASON\s+COST\s+CREATED$/m);
    expect(text).toMatch(/c1\s+webCall\s+ended\s+customer-ended-call\s+\$0\.13\s+3 minutes ago/);
  });
});

describe('cells', () => {
  it('measures wide characters and fits widths', () => {
    expect(displayWidth('日本')).toBe(4);
    expect(truncate('日本語テキスト', 5)).toBe('日本…');
    expect(fitWidths([10, 50, 8], 40)).toEqual([10, 18, 8]);
  });
});
