import { describe, expect, it } from 'vitest';
import {
  buildServerMessage,
  expectsAnswer,
  isSubscribed,
  sampleAnswers,
  sampleServerMessage,
  serverMessageTypes,
  answeredMessageTypes,
  openAIFormatted,
  sampleMessages,
  transcriptText,
  deepFreeze,
  isDeepFrozen,
  campaignEventTypes,
  campaignEventProblems,
} from './index.js';
import { componentSchema } from '../schemas/validate.js';
import { messageProblems } from './testing.js';

describe('core/messages', () => {
  it('has one builder per type: the 29 union members plus assistant.started and campaign.event', () => {
    expect(serverMessageTypes).toHaveLength(31);
    expect(new Set(serverMessageTypes).size).toBe(31);
    for (const type of serverMessageTypes) {
      const m = sampleServerMessage(type);
      expect(m.type).toBe(type);
      expect(typeof m.timestamp).toBe('number');
      expect(m.call).toBeDefined();
    }
  });

  it('fills type-specific required fields from the context', () => {
    const eoc = sampleServerMessage('end-of-call-report');
    expect(eoc.endedReason).toBe('customer-ended-call');
    expect((eoc.artifact as { transcript: string }).transcript).toContain('User: I would like an appointment on Monday.');
    expect((eoc.analysis as { summary: string }).summary).toMatch(/bookAppointment/);
    const tc = sampleServerMessage('tool-calls');
    expect((tc.toolCallList as unknown[])[0]).toMatchObject({ id: 'call_sample_1', function: { name: 'bookAppointment' } });
    expect((tc.toolWithToolCallList as unknown[])[0]).toMatchObject({ type: 'function', toolCall: { id: 'call_sample_1' } });
    expect(sampleServerMessage('assistant.started').newAssistant).toMatchObject({ name: 'Sample Assistant' });
  });

  it('builds from a bare context and applies overrides last', () => {
    const m = buildServerMessage('status-update', { timestamp: 5, data: { status: 'ended', endedReason: 'voicemail' } }, { extra: 1 });
    expect(m).toEqual({ type: 'status-update', timestamp: 5, status: 'ended', endedReason: 'voicemail', extra: 1 });
    expect(() => buildServerMessage('nope' as never)).toThrow(/Unknown server message type "nope"/);
  });

  it('knows which types wait for an answer and has a sample answer for each', () => {
    expect(expectsAnswer('tool-calls')).toBe(true);
    expect(expectsAnswer('status-update')).toBe(false);
    expect(Object.keys(sampleAnswers).sort()).toEqual([...answeredMessageTypes].sort());
  });

  it('filters by serverMessages with the published default', () => {
    expect(isSubscribed({ type: 'status-update' })).toBe(true);
    expect(isSubscribed({ type: 'transcript', transcriptType: 'final' })).toBe(false);
    expect(isSubscribed({ type: 'transcript', transcriptType: 'final' }, ['transcript[transcriptType="final"]'])).toBe(true);
    expect(isSubscribed({ type: 'transcript', transcriptType: 'partial' }, ['transcript[transcriptType="final"]'])).toBe(false);
    expect(isSubscribed({ type: 'status-update' }, ['end-of-call-report'])).toBe(false);
    expect(isSubscribed({ type: 'assistant-request' }, [])).toBe(true);
  });

  it('renders a conversation in OpenAI format and as a transcript', () => {
    const open = openAIFormatted(sampleMessages);
    expect(open.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(JSON.parse(open[2]?.content ?? '')).toEqual([{ id: 'call_sample_1', type: 'function', function: { name: 'bookAppointment', arguments: '{"day":"monday"}' } }]);
    expect(transcriptText(sampleMessages).split('\n')).toHaveLength(3);
  });

  it('formats a conversation frozen all the way down once, and any other each time', () => {
    const plain = openAIFormatted(sampleMessages);
    expect(openAIFormatted(sampleMessages)).not.toBe(plain);
    expect(Object.isFrozen(plain)).toBe(false);
    const frozen = deepFreeze(structuredClone(sampleMessages));
    const once = openAIFormatted(frozen);
    expect(openAIFormatted(frozen)).toBe(once);
    expect(isDeepFrozen(once)).toBe(true);
    expect(once).toEqual(plain);
  });

  it("knows a campaign's events as the published enum names them, and judges an event's data by its name", async () => {
    const dto = (await componentSchema('CreateCampaignDTO')) as { properties: { serverMessages: { items: { enum: string[] } } } };
    expect([...campaignEventTypes].sort()).toEqual([...dto.properties.serverMessages.items.enum].sort());
    const event = (eventType: string, data: object): Record<string, unknown> => ({ type: 'campaign.event', timestamp: 1, campaignId: 'c', eventType, data });
    expect(await messageProblems([event('contact.completed', { contactId: 'x', callId: 'y', endedReason: 'customer-ended-call' })])).toEqual([]);
    expect(campaignEventProblems(event('contact.skipped', { callId: 'y' }))).toEqual(['data.callId is not a field of contact.skipped']);
    expect((await messageProblems([event('contact.lost', {})])).join('\n')).toMatch(/eventType must be one of/);
  });
});
