// Bodies the platform refuses, refused the same way: a 400 with the platform's error shape whose
// `message` names the field, and nothing stored. The checks come from the derived request schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';

let emu: Emulator;
const H = { authorization: 'Bearer k', 'content-type': 'application/json' };
beforeAll(async () => {
  emu = await startEmulator({ seed: true });
});
afterAll(() => emu.close());

interface Case {
  name: string;
  path: string;
  body: unknown;
  /** A message the 400 must carry (it starts with the field's dotted path). */
  message: RegExp;
  method?: 'POST' | 'PATCH';
}

const model = { provider: 'openai', model: 'gpt-4o' };
const cases: Case[] = [
  { name: 'assistant: empty string where the model object goes', path: '/assistant', body: { name: 'A', model: '' }, message: /^model must be an object$/ },
  { name: 'assistant: empty string where the voice object goes', path: '/assistant', body: { voice: '' }, message: /^voice must be an object$/ },
  { name: 'assistant: model without its provider (the discriminant)', path: '/assistant', body: { model: { model: 'gpt-4o' } }, message: /^model\.provider should not be empty$/ },
  {
    name: 'assistant: a model provider the platform does not have',
    path: '/assistant',
    body: { model: { provider: 'skynet', model: 'x' } },
    message: /^model\.provider must be one of the following values: .*openai/,
  },
  { name: 'assistant: a required field of the chosen model missing', path: '/assistant', body: { model: { provider: 'openai' } }, message: /^model\.model should not be empty$/ },
  { name: 'assistant: wrong type inside the model', path: '/assistant', body: { model: { ...model, temperature: 'warm' } }, message: /^model\.temperature must be a number$/ },
  { name: 'assistant: a number where a string goes', path: '/assistant', body: { name: 42 }, message: /^name must be a string$/ },
  { name: 'assistant: an unknown enum value', path: '/assistant', body: { firstMessageMode: 'shout' }, message: /^firstMessageMode must be one of the following values: / },
  { name: 'assistant: a property the platform does not know', path: '/assistant', body: { colour: 'red' }, message: /^property colour should not exist$/ },
  { name: 'assistant: a voice without its voiceId', path: '/assistant', body: { voice: { provider: '11labs' } }, message: /^voice\.voiceId should not be empty$/ },
  { name: 'assistant update: empty model', method: 'PATCH', path: '/assistant/f164d894-ab97-5cba-a021-b233d4b23e13', body: { model: '' }, message: /^model must be an object$/ },
  { name: 'tool: no type (the discriminant)', path: '/tool', body: { function: { name: 'lookup' } }, message: /^type should not be empty$/ },
  { name: 'tool: an unknown type', path: '/tool', body: { type: 'telepathy' }, message: /^type must be one of the following values: / },
  { name: 'tool: empty string where the function object goes', path: '/tool', body: { type: 'function', function: '' }, message: /^function must be an object$/ },
  { name: 'tool: a function name with a space', path: '/tool', body: { type: 'function', function: { name: 'look up' } }, message: /^function\.name must match / },
  { name: 'phone number: an unknown provider', path: '/phone-number', body: { provider: 'acme', number: '+14155550100' }, message: /^provider must be one of the following values: / },
  { name: 'phone number: twilio without its account', path: '/phone-number', body: { provider: 'twilio', number: '+14155550100' }, message: /^twilioAccountSid should not be empty$/ },
  { name: 'squad: members not an array', path: '/squad', body: { members: 'everyone' }, message: /^members must be an array$/ },
  { name: 'squad: empty string where a member assistant goes', path: '/squad', body: { members: [{ assistant: '' }] }, message: /^members\.0\.assistant must be an object$/ },
  { name: 'call: empty string where the customer goes', path: '/call', body: { assistantId: 'a', customer: '' }, message: /^customer must be an object$/ },
  {
    name: 'workflow: a node type the platform does not have',
    path: '/workflow',
    body: { name: 'W', nodes: [{ type: 'teleport', name: 'x' }], edges: [] },
    message: /^nodes\.0\.type must be one of the following values: /,
  },
  { name: 'knowledge base: empty string where the server goes', path: '/knowledge-base', body: { provider: 'custom-knowledge-base', server: '' }, message: /^server must be an object$/ },
  { name: 'campaign: customers not an array', path: '/campaign', body: { name: 'C', phoneNumberId: 'p', customers: 'all' }, message: /^customers must be an array$/ },
  {
    name: 'test: a scorer without its rubric',
    path: '/test-suite/6668b5b3-8e6f-5929-96f1-877411c2ab44/test',
    body: { type: 'chat', script: 'Hi', scorers: [{ type: 'ai' }] },
    message: /^scorers\.0\.rubric should not be empty$/,
  },
  { name: 'chat: no input', path: '/chat', body: { assistantId: 'a' }, message: /^input should not be empty$/ },
];

/** The collection (or the object, for updates) as JSON text: identical before and after when nothing was stored. */
async function contents(path: string): Promise<string> {
  const target = path.split('/').length > 2 ? path : `${path}?limit=1000`;
  return (await fetch(`${emu.url}${target}`, { headers: H })).text();
}

describe('bodies the platform refuses', () => {
  it.each(cases)('$name → 400 naming the field', async (c) => {
    const before = await contents(c.path);
    const res = await fetch(`${emu.url}${c.path}`, { method: c.method ?? 'POST', headers: H, body: JSON.stringify(c.body) });
    const body = (await res.json()) as { statusCode: number; message: string[]; error: string };
    expect(res.status).toBe(400);
    expect(body.statusCode).toBe(400);
    expect(body.error).toBe('Bad Request');
    expect(Array.isArray(body.message)).toBe(true);
    expect(body.message, JSON.stringify(body.message)).toEqual(expect.arrayContaining([expect.stringMatching(c.message)]));
    expect(await contents(c.path)).toBe(before);
  });

  it('accepts the same bodies once they are right', async () => {
    const ok = await fetch(`${emu.url}/assistant`, { method: 'POST', headers: H, body: JSON.stringify({ name: 'A', model, voice: { provider: '11labs', voiceId: 'rachel' } }) });
    expect(ok.status).toBe(201);
    const tool = await fetch(`${emu.url}/tool`, { method: 'POST', headers: H, body: JSON.stringify({ type: 'function', function: { name: 'look_up' } }) });
    expect(tool.status).toBe(201);
  });
});
