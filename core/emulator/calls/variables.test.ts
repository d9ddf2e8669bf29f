// Template variables in an assistant's texts, filled as the platform fills them (LiquidJS): from
// `assistantOverrides.variableValues`, the customer and the phone number, in what the caller hears
// and in the prompt the model reads; a template that cannot be read is used as written, with a warning.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModel } from '../../model/testing.js';
import type { FakeModel } from '../../model/testing.js';
import { startEmulator } from '../index.js';
import type { Emulator } from '../index.js';
import { templatesReady, withVariables } from './variables.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
type Obj = Record<string, unknown>;

let emu: Emulator | undefined;
let fake: FakeModel | undefined;
afterEach(async () => {
  await emu?.close();
  await fake?.close();
  emu = fake = undefined;
});

async function run(body: Obj): Promise<Obj> {
  if (!emu) throw new Error('no emulator');
  const res = await fetch(`${emu.url}/call`, { method: 'POST', headers, body: JSON.stringify({ customer: { number: '+14155550177', name: 'Ada' }, ...body }) });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await emu.calls.idle();
  return (await (await fetch(`${emu.url}/call/${id}`, { headers })).json()) as Obj;
}

const transcript = (call: Obj): string => String((call.artifact as Obj).transcript);

describe('template variables', () => {
  it('fills the first message from variableValues and the customer', async () => {
    emu = await startEmulator({ speed: 500, scenario: { turns: [{ say: 'Hi.' }, { hangup: true }] } });
    const assistant = { name: 'Desk', firstMessage: 'Hello {{ name }}, is {{customer.number}} still your number, {{ customer.name | upcase }}?' };
    const call = await run({ assistant, assistantOverrides: { variableValues: { name: 'Grace' } } });
    expect(transcript(call)).toContain('AI: Hello Grace, is +14155550177 still your number, ADA?');
  });

  it('fills the texts of the squad member a call is handed to', async () => {
    emu = await startEmulator({ speed: 500, scenario: { turns: [{ say: 'My bill, please.', handoff: 'Billing' }, { hangup: true }] } });
    const front = {
      name: 'Front',
      firstMessage: 'Front desk.',
      model: { provider: 'openai', model: 'gpt-4o-mini', tools: [{ type: 'handoff', destinations: [{ type: 'assistant', assistantName: 'Billing' }] }] },
    };
    const billing = { name: 'Billing', firstMessage: 'Billing here for {{ customer.number }}.' };
    const call = await run({ squad: { members: [{ assistant: front }, { assistant: billing }] } });
    expect(transcript(call)).toContain('AI: Billing here for +14155550177.');
  });

  it("fills the model's system prompt", async () => {
    fake = await startFakeModel([{ text: 'Hi there.' }]);
    emu = await startEmulator({ speed: 500, scenario: { turns: [{ say: 'Hi.' }, { hangup: true }] }, model: { url: fake.url, model: 'fake-llm' } });
    const assistant = { firstMessage: 'Hello.', model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You help {{ name }} at {{company}}.' }] } };
    await run({ assistant, assistantOverrides: { variableValues: { name: 'Grace', company: 'Acme' } } });
    expect((fake.requests[0]?.body.messages as Obj[])[0]).toEqual({ role: 'system', content: 'You help Grace at Acme.' });
  });

  it("fills a chat's system prompt too", async () => {
    fake = await startFakeModel([{ text: 'Hello Grace.' }]);
    emu = await startEmulator({ model: { url: fake.url, model: 'fake-llm' } });
    const assistant = { model: { provider: 'openai', model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'You help {{ name }}.' }] } };
    const res = await fetch(`${emu.url}/chat`, { method: 'POST', headers, body: JSON.stringify({ assistant, assistantOverrides: { variableValues: { name: 'Grace' } }, input: 'Hi' }) });
    expect(res.status, await res.clone().text()).toBe(201);
    expect((fake.requests[0]?.body.messages as Obj[])[0]).toEqual({ role: 'system', content: 'You help Grace.' });
  });

  it('leaves a template it cannot read as written, and says why', async () => {
    await templatesReady();
    const problems: string[] = [];
    const assistant = { firstMessage: 'Hi {{ name', endCallMessage: 'Bye {{ name }}.', variableValues: { name: 'Ada' } };
    const filled = withVariables(assistant, {}, problems);
    expect(filled).toMatchObject({ firstMessage: 'Hi {{ name', endCallMessage: 'Bye Ada.' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^firstMessage: /);
    // An assistant with no template is used as it is, not copied.
    const plain = { firstMessage: 'Hello.' };
    expect(withVariables(plain, {})).toBe(plain);
  });
});
