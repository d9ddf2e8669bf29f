// How each stored resource behaves beyond plain CRUD: its label in messages, the rules its
// bodies follow and the fields the platform fills in on create. Keyed by collection name
// (the catalogue resource path, e.g. `test-suite/run`); endpoints themselves come from the catalogue.
import { randomUUID } from 'node:crypto';
import type { Rules } from './validate.js';
import { PUBLISHED_COLLECTIONS } from './collections-more.js';

/** Behaviour of one collection. */
export interface CollectionSpec {
  label?: string;
  rules?: Rules;
  /** Fields the platform sets on create unless the body gives them. */
  defaults?: () => Record<string, unknown>;
  /** Objects without `orgId` (organisations). */
  unscoped?: boolean;
}

/**
 * Every collection with behaviour of its own. Bodies of the operations the platform publishes are
 * checked against its schemas before any handler runs (schema-check.ts); `rules` remain only for
 * bodies it does not publish (the browser chat endpoints share the chat's).
 */
export const COLLECTIONS: Readonly<Record<string, CollectionSpec>> = {
  chat: { rules: { input: { type: 'string|array', required: true }, assistantId: { type: 'string' }, sessionId: { type: 'string' }, previousChatId: { type: 'string' } } },
  campaign: {
    defaults: () => ({ status: 'scheduled', calls: {}, callsCounterScheduled: 0, callsCounterQueued: 0, callsCounterInProgress: 0, callsCounterEndedVoicemail: 0, callsCounterEnded: 0 }),
  },
  session: { defaults: () => ({ status: 'active' }) },
  'phone-number': { label: 'Phone number', defaults: () => ({ status: 'active' }) },
  'knowledge-base': { label: 'Knowledge base' },
  'test-suite': { label: 'Test suite' },
  'test-suite/test': { label: 'Test', defaults: () => ({ scorers: [] }) },
  'test-suite/run': { label: 'Test suite run', defaults: () => ({ status: 'queued', testResults: [] }) },
  org: { label: 'Organization', unscoped: true },
  token: { defaults: () => ({ tag: 'private', value: randomUUID() }) },
  template: { defaults: () => ({ visibility: 'private' }) },
  ...PUBLISHED_COLLECTIONS,
};

/** The spec of a collection (empty when it has no behaviour of its own). */
export function specOf(name: string): CollectionSpec {
  return COLLECTIONS[name] ?? {};
}

/** The word used in messages, e.g. `Phone number` for `phone-number`. */
export function labelOf(name: string): string {
  const spec = COLLECTIONS[name];
  if (spec?.label) return spec.label;
  const last = name.split('/').pop() ?? name;
  const words = last.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
