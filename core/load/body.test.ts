// A delivery's body in parts must be byte for byte the JSON of the message, whichever parts are
// reused: frozen values, a call unchanged since its last message, a conversation of frozen lines.
import { expect, it } from 'vitest';
import { deepFreeze } from '../messages/index.js';
import { bodyText, SentCalls, wrappedBody } from './body.js';

const joined = (b: ReturnType<typeof wrappedBody>): Buffer => Buffer.concat(b.parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));

it('writes the same bytes as JSON.stringify, frozen parts, arrays of them and left-out values included', () => {
  const assistant = deepFreeze({ name: 'Ré', model: { tools: [{ type: 'function' }] } });
  const lines = [deepFreeze({ role: 'bot', message: 'Hi "there"' }), deepFreeze({ role: 'user', message: 'ünïcode' })];
  const message = { type: 'conversation-update', assistant, skipped: undefined, messages: [...lines], empty: [], mixed: [lines[0], { role: 'user' }], n: 1.5 };
  const body = wrappedBody('message', message);
  const expected = JSON.stringify({ message });
  expect(joined(body).toString()).toBe(expected);
  expect(body.bytes).toBe(Buffer.byteLength(expected));
  expect(bodyText(body)).toBe(expected);
  // A frozen array of frozen lines, values JSON leaves out or writes as null included.
  const conversation = deepFreeze([lines[0], 'text', 2, null, undefined, [lines[1]], { nested: [lines[1]] }]);
  const frozenBody = wrappedBody('message', { messages: conversation, again: conversation });
  expect(bodyText(frozenBody)).toBe(JSON.stringify({ message: { messages: conversation, again: conversation } }));
  // Frozen parts inside plain objects and arrays that are not frozen (an ended call's conversation).
  const ended = { call: { id: 'c9', artifact: { messages: conversation, at: new Date(0), odd: { toJSON: () => 'x' }, gone: undefined }, list: [undefined, () => 1, lines[0], -0, NaN] } };
  const endedBody = wrappedBody('message', ended, new SentCalls());
  expect(bodyText(endedBody)).toBe(JSON.stringify({ message: ended }));
  expect(endedBody.parts.filter((p) => Buffer.isBuffer(p)).length).toBeGreaterThan(1);
  // The frozen assistant is copied from the same bytes each time.
  const again = wrappedBody('message', { assistant });
  expect(again.parts.find((p) => Buffer.isBuffer(p))).toBe(body.parts.find((p) => Buffer.isBuffer(p)));
});

it('reuses a call only while every field is the one last sent, and never one holding an unfrozen object', () => {
  const calls = new SentCalls(2);
  const customer = deepFreeze({ number: '+15550100' });
  const call = { id: 'c1', status: 'in-progress', customer };
  const first = wrappedBody('message', { type: 'transcript', call: { ...call } }, calls);
  const second = wrappedBody('message', { type: 'speech-update', call: { ...call } }, calls);
  expect(second.parts[1]).toBe(first.parts[1]);
  const ended = { ...call, status: 'ended' };
  const third = wrappedBody('message', { type: 'status-update', call: ended }, calls);
  expect(third.parts[1]).not.toBe(first.parts[1]);
  expect(bodyText(third)).toBe(JSON.stringify({ message: { type: 'status-update', call: ended } }));
  // A field holding an object that could change inside is written anew each time.
  const open = { ...call, artifact: { messages: [] as string[] } };
  const a = wrappedBody('message', { call: open }, calls);
  open.artifact.messages.push('later');
  expect(bodyText(wrappedBody('message', { call: open }, calls))).toBe(JSON.stringify({ message: { call: open } }));
  expect(bodyText(a)).toBe(JSON.stringify({ message: { call: { ...call, artifact: { messages: [] } } } }));
});
