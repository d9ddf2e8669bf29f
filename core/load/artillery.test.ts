// The Artillery export on paper: one call list row per scheduled call, in schedule order, with
// unique ids and the exact kinds; texts holding `{{` travel in the call list, untouched.
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportArtillery } from './index.js';

it('writes one row per call with the exact kinds, and keeps texts with {{ }} out of the template', async () => {
  // The platform fills templates (LiquidJS); a raw block keeps braces, as a text that says them would.
  const firstMessage = 'Hi {{customer.number}}, "welcome", how can I help?';
  const x = await exportArtillery(
    {
      assistant: {
        name: 'A',
        firstMessage: `Hi {% raw %}{{customer.number}}{% endraw %}, "welcome", how can I help?`,
        serverMessages: ['status-update', 'end-of-call-report'],
        server: { url: 'http://127.0.0.1:9/hook', timeoutSeconds: 5 },
      },
      calls: 7,
      inbound: 0.3,
      rate: 2,
    },
    'a.calls.csv',
  );
  // Rows begin with an id and two digits (the texts after them may span lines).
  expect(x.csv.startsWith('callId,inbound,outbound,text1,')).toBe(true);
  const rows = [...x.csv.matchAll(/^([0-9a-f-]{36}),([01]),([01]),/gm)];
  expect(rows).toHaveLength(7);
  expect(new Set(rows.map((r) => r[1])).size).toBe(7);
  // The engine's rule: call i is inbound when floor((i + 1) * share) passes floor(i * share).
  expect(rows.map((r) => r[2])).toEqual(['0', '0', '0', '1', '0', '0', '1']);
  expect(rows.every((r) => Number(r[2]) + Number(r[3]) === 1)).toBe(true);
  expect(x.csv).toContain(`"${firstMessage.replace(/"/g, '""')}"`);
  expect(x.users).toEqual({ inbound: 2, outbound: 5 });
  const doc = parse(x.text) as { config: { payload: { path: string; order: string }[]; http: { timeout: number } }; scenarios: { flow: { count: string; loop: { post?: { json: unknown } }[] }[] }[] };
  expect(doc.config.payload[0]).toMatchObject({ path: 'a.calls.csv', order: 'sequence' });
  expect(doc.config.http.timeout).toBe(5);
  expect(doc.scenarios).toHaveLength(1);
  expect(doc.scenarios[0]?.flow.map((f) => f.count)).toEqual(['{{ inbound }}', '{{ outbound }}']);
  const bodies = JSON.stringify(doc.scenarios[0]?.flow.flatMap((f) => f.loop.map((s) => s.post?.json)));
  expect(bodies).not.toContain('customer.number');
  expect(bodies).toContain('"{{ text1 }}"');
  expect(bodies).toContain('"{{ callId }}"');
  // Inbound: assistant-request, 2 statuses, a report; outbound: 4 statuses, a report.
  expect(x.perType).toEqual({ 'assistant-request': 2, 'status-update': 2 * 2 + 5 * 4, 'end-of-call-report': 7 });
  expect(x.requests).toBe(2 * 4 + 5 * 5);
}, 30_000);
