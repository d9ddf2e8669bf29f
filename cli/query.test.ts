import { describe, expect, it } from 'vitest';
import { catalogue } from '#core/catalogue/index';
import { attrOf, buildQuery, flagOf } from './query.js';

describe('buildQuery', () => {
  it('maps friendly flags and per-parameter flags to query names', () => {
    const q = buildQuery(catalogue.v2.call.list, { limit: '5', page: '2', sort: 'desc', createdAfter: '2025-01-01', assistantId: 'a1', idAny: ['x', 'y'], costGe: '0.5' });
    expect(q).toEqual({ limit: 5, page: 2, sortOrder: 'DESC', createdAtGt: '2025-01-01', assistantId: 'a1', idAny: ['x', 'y'], costGe: 0.5 });
  });

  it('takes --query for anything else, repeated keys becoming arrays', () => {
    expect(buildQuery(catalogue.assistant.list, { query: ['foo=1', 'foo=2', 'limit=3'] })).toEqual({ foo: ['1', '2'], limit: 3 });
    expect(buildQuery(catalogue.assistant.list, {})).toBeUndefined();
  });

  it('rejects bad values with the flag name', () => {
    expect(() => buildQuery(catalogue.assistant.list, { limit: '0' })).toThrow(/--limit/);
    expect(() => buildQuery(catalogue.v2.call.list, { sort: 'up' })).toThrow(/--sort expects asc or desc/);
    expect(() => buildQuery(catalogue.assistant.list, { createdBefore: 'soon' })).toThrow(/--created-before/);
  });

  it('names flags after the parameters', () => {
    expect(flagOf('assistantIdAny')).toBe('--assistant-id-any');
    expect(flagOf('createdAtLt')).toBe('--created-before');
    expect(attrOf('sortOrder')).toBe('sort');
  });
});
