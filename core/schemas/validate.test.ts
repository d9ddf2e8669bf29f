import { describe, expect, it } from 'vitest';
import operations from './operations.json' with { type: 'json' };
import { loadSchemas, messagesOf, validateRequest, validateResponse, validateServerMessage, validateServerMessageResponse } from './validate.js';

describe('derived schema set', () => {
  it('covers every published operation, keyed by METHOD path', () => {
    const keys = Object.keys(operations);
    expect(keys.length).toBe(230);
    expect(keys).toContain('POST /assistant');
    expect(keys).toContain('GET /v2/call');
  });
});

describe('validator', () => {
  it('names each wrong field of a request body, the way the platform does', async () => {
    const errors = await validateRequest('POST', '/assistant', { model: '', name: 5, colour: 'red' });
    expect(messagesOf(errors)).toEqual(expect.arrayContaining(['model must be an object', 'name must be a string', 'property colour should not exist']));
  });

  it('reports the discriminant of a tagged union, with the values it takes', async () => {
    const [tag] = await validateRequest('POST', '/assistant', { model: { provider: 'nope', model: 'x' } });
    expect(tag?.path).toBe('model.provider');
    expect(tag?.message).toMatch(/^model\.provider must be one of the following values: .*openai/);
    const missing = messagesOf(await validateRequest('POST', '/tool', {}));
    expect(missing).toContain('type should not be empty');
  });

  it('checks inside the chosen branch of a union', async () => {
    const errors = await validateRequest('POST', '/assistant', { model: { provider: 'openai', model: 'gpt-4o', temperature: 'hot' } });
    expect(messagesOf(errors)).toEqual(['model.temperature must be a number']);
  });

  it('accepts a body that fits, and matches concrete paths to their templates', async () => {
    expect(await validateRequest('POST', '/assistant', { name: 'Front desk', model: { provider: 'openai', model: 'gpt-4o' } })).toEqual([]);
    expect(await validateRequest('PATCH', '/assistant/asst_1', { name: 'Front desk' })).toEqual([]);
    expect(messagesOf(await validateRequest('PATCH', '/assistant/asst_1', { name: 1 }))).toEqual(['name must be a string']);
  });

  it('takes the shapes the document gets wrong the way the platform does', async () => {
    // Allowed values published on an array apply to its items; chat messages are `{ role, content }`.
    expect(await validateRequest('POST', '/voice-library/sync', { providers: ['11labs', 'vapi'] })).toEqual([]);
    expect(messagesOf(await validateRequest('POST', '/voice-library/sync', { providers: ['nope'] }))[0]).toMatch(/^providers\.0 must be one of the following values: /);
    expect(await validateRequest('POST', '/chat', { input: [{ role: 'user', content: 'Hi' }] })).toEqual([]);
  });

  it('refuses unknown properties of bodies, and of answers only when asked', async () => {
    const answer = { id: 'a', orgId: 'o', createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', invented: 1 };
    expect(await validateResponse('GET', '/assistant/a', answer)).toEqual([]);
    expect(messagesOf(await validateResponse('GET', '/assistant/a', answer, { closed: true }))).toEqual(['property invented should not exist']);
    expect(await validateRequest('POST', '/assistant', { invented: 1 }, { closed: false })).toEqual([]);
  });

  it('checks answers against the success schema', async () => {
    const errors = await validateResponse('GET', '/assistant/{id}', { id: 'a' });
    expect(messagesOf(errors)).toEqual(['orgId should not be empty', 'createdAt should not be empty', 'updatedAt should not be empty']);
    const ok = { id: 'a', orgId: 'o', createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' };
    expect(await validateResponse('GET', '/assistant/a', ok)).toEqual([]);
    expect(messagesOf(await validateResponse('GET', '/assistant/a', { ...ok, createdAt: 'yesterday' }))).toEqual(['createdAt must be a valid ISO 8601 date string']);
  });

  it('checks server messages by type, bare or in their envelope', async () => {
    const status = { type: 'status-update', status: 'in-progress' };
    expect(await validateServerMessage(status)).toEqual([]);
    expect(await validateServerMessage({ message: status })).toEqual([]);
    expect(messagesOf(await validateServerMessage({ type: 'status-update', status: 'on-fire' }))[0]).toMatch(/^status must be one of the following values: /);
    expect(messagesOf(await validateServerMessage({ message: { type: 'status-update', status: 'on-fire' } }))[0]).toMatch(/^message\.status must be/);
    const [unknown] = await validateServerMessage({ type: 'assistant.started' });
    expect(unknown?.path).toBe('type');
  });

  it('lists all 29 members of the ServerMessage union and checks answers to those that expect one', async () => {
    const schemas = await loadSchemas();
    // transcript has two type values, so 30 types for 29 members.
    expect(schemas.messageTypes).toHaveLength(30);
    expect(schemas.answeredTypes).toEqual(expect.arrayContaining(['assistant-request', 'tool-calls', 'transfer-destination-request']));
    expect(await validateServerMessageResponse('tool-calls', { results: [{ toolCallId: 'c1', name: 'lookup', result: 'ok' }] })).toEqual([]);
    const bad = messagesOf(await validateServerMessageResponse('tool-calls', { results: [{ toolCallId: 1 }] }));
    expect(bad).toEqual(expect.arrayContaining(['results.0.toolCallId must be a string']));
    expect(await validateServerMessageResponse('status-update', { anything: true })).toEqual([]);
  });
});
