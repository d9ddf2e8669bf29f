import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endedReasonFor, type FailureCause } from './failures.js';

// The derived schemas (scripts/derive-schemas.js) carry the reference's endedReason enum.
const components = JSON.parse(readFileSync(new URL('../schemas/components.json', import.meta.url), 'utf8')) as Record<string, { properties?: Record<string, { enum?: string[] }> }>;
const known = new Set(components.Call!.properties!.endedReason!.enum);

const providers = [
  'custom-llm',
  'openai',
  'azure-openai',
  'anthropic',
  'anthropic-bedrock',
  'anyscale',
  'cerebras',
  'deep-seek',
  'deepinfra',
  'google',
  'groq',
  'inflection-ai',
  'minimax',
  'openrouter',
  'perplexity-ai',
  'together-ai',
  'vapi',
  'xai',
  'some-new-provider',
  undefined,
];
const causes: FailureCause[] = [
  ...[400, 401, 403, 404, 422, 429, 500, 502, 503, 504].map((status) => ({ kind: 'http' as const, status, body: '' })),
  { kind: 'http', status: 401, body: '{"error":{"code":"invalid_api_key"}}' },
  { kind: 'http', status: 429, body: '{"error":{"code":"insufficient_quota"}}' },
  { kind: 'unreachable', detail: 'ECONNREFUSED' },
  { kind: 'timeout', seconds: 20 },
  { kind: 'malformed', detail: 'x' },
];

describe('endedReasonFor', () => {
  it("names every failure of every provider with a value of the reference's endedReason enum", () => {
    for (const provider of providers) for (const cause of causes) expect(known, `${String(provider)} ${JSON.stringify(cause)}`).toContain(endedReasonFor(provider, cause));
  });

  it('picks the family member for the status', () => {
    expect(endedReasonFor('openai', { kind: 'http', status: 429, body: 'Rate limit reached' })).toBe('call.in-progress.error-vapifault-openai-429-rate-limit-reached');
    expect(endedReasonFor('openai', { kind: 'http', status: 429, body: 'insufficient_quota' })).toBe('call.in-progress.error-vapifault-openai-429-exceeded-quota');
    expect(endedReasonFor('openai', { kind: 'http', status: 401, body: 'Incorrect API key provided' })).toBe('call.in-progress.error-vapifault-openai-401-incorrect-api-key');
    expect(endedReasonFor('groq', { kind: 'http', status: 500, body: '' })).toBe('call.in-progress.error-providerfault-groq-llm-failed');
    expect(endedReasonFor('groq', { kind: 'http', status: 403, body: '' })).toBe('call.in-progress.error-vapifault-groq-403-model-access-denied');
    expect(endedReasonFor('custom-llm', { kind: 'timeout', seconds: 20 })).toBe('call.in-progress.error-providerfault-custom-llm-llm-failed');
  });
});
