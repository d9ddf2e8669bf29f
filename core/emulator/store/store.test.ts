// The store's data-file text and bulk removal: the text is the snapshot as compact JSON, a
// settled object's kept text is dropped when the object changes, and removal keeps the order.
import { describe, expect, it } from 'vitest';
import { Store } from './store.js';
import type { Rec } from './store.js';

const settled = (collection: string, rec: Rec): boolean => collection === 'log' || rec.status === 'ended';

describe('Store.snapshotBytes', () => {
  it('is the snapshot as compact JSON, whatever it kept from earlier writes', () => {
    const store = new Store();
    store.insert('assistant', { name: 'A', model: { provider: 'openai', messages: [{ role: 'system', content: 'ünïcode "quoted"' }] } });
    const call = store.insert('call', { status: 'ended', messages: [{ role: 'bot', message: 'Hi' }] });
    for (let i = 0; i < 5; i++) store.insert('log', { callId: call.id, log: `line ${i}`, skipped: undefined });
    const first = store.snapshotBytes(settled).toString();
    expect(first).toBe(JSON.stringify(store.snapshot()));
    expect(JSON.parse(first)).toEqual(JSON.parse(JSON.stringify(store.snapshot())));
    expect(store.snapshotBytes(settled).toString()).toBe(first);
  });

  it('writes a settled object anew once it is touched or replaced', () => {
    const store = new Store();
    const call = store.insert('call', { status: 'ended', name: 'before' });
    store.snapshotBytes(settled).toString();
    call.name = 'patched';
    store.touch(call);
    expect(JSON.parse(store.snapshotBytes(settled).toString()).collections.call[0].name).toBe('patched');
    store.replace(call, { status: 'ended', name: 'replaced' });
    expect(JSON.parse(store.snapshotBytes(settled).toString()).collections.call[0].name).toBe('replaced');
    expect(store.snapshotBytes(settled).toString()).toBe(JSON.stringify(store.snapshot()));
  });

  it('writes an object that is not settled as it is now, every time', () => {
    const store = new Store();
    const call = store.insert('call', { status: 'in-progress', messages: [] as unknown[] });
    store.snapshotBytes(settled).toString();
    (call.messages as unknown[]).push({ role: 'user', message: 'Hello' });
    expect(JSON.parse(store.snapshotBytes(settled).toString()).collections.call[0].messages).toHaveLength(1);
  });
});

describe('Store.removeWhere', () => {
  it('removes every match in one pass and keeps the rest in order, by id too', () => {
    const store = new Store();
    const recs = Array.from({ length: 10 }, (_, i) => store.insert('log', { n: i }));
    const seen = store.all('log');
    expect(store.removeWhere('log', (r) => (r.n as number) % 3 === 0)).toBe(4);
    expect(seen.map((r) => r.n)).toEqual([1, 2, 4, 5, 7, 8]);
    expect(store.get('log', recs[0]!.id)).toBeUndefined();
    expect(store.get('log', recs[1]!.id)).toBe(recs[1]);
    expect(store.removeWhere('nothing', () => true)).toBe(0);
  });
});
