// How each stored resource behaves beyond plain CRUD: its label in messages, the rules its
// bodies follow and the fields the platform fills in on create. Keyed by collection name
// (the catalogue resource path, e.g. `test-suite/run`); endpoints themselves come from the catalogue.
import { randomUUID } from 'node:crypto';
import { PHONE_NUMBER_PROVIDERS, TOOL_TYPES } from '../catalogue/models.js';
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

const assistantRules: Rules = {
  name: { type: 'string' },
  firstMessage: { type: 'string' },
  model: { type: 'object' },
  voice: { type: 'object' },
  transcriber: { type: 'object' },
  metadata: { type: 'object' },
};

/** Every collection with behaviour of its own. */
export const COLLECTIONS: Readonly<Record<string, CollectionSpec>> = {
  assistant: { rules: assistantRules },
  call: {
    rules: { name: { type: 'string' }, assistantId: { type: 'string' }, assistant: { type: 'object' }, squadId: { type: 'string' }, phoneNumberId: { type: 'string' }, customer: { type: 'object' } },
  },
  chat: { rules: { input: { type: 'string|array', required: true }, assistantId: { type: 'string' }, sessionId: { type: 'string' }, previousChatId: { type: 'string' } } },
  campaign: {
    rules: { name: { type: 'string', required: true }, customers: { type: 'array' }, phoneNumberId: { type: 'string' } },
    defaults: () => ({ status: 'scheduled', calls: {}, callsCounterScheduled: 0, callsCounterQueued: 0, callsCounterInProgress: 0, callsCounterEndedVoicemail: 0, callsCounterEnded: 0 }),
  },
  session: { rules: { name: { type: 'string' }, assistantId: { type: 'string' }, messages: { type: 'array' } }, defaults: () => ({ status: 'active' }) },
  'phone-number': {
    label: 'Phone number',
    rules: { provider: { type: 'string', required: true, oneOf: PHONE_NUMBER_PROVIDERS }, number: { type: 'string' }, name: { type: 'string' }, assistantId: { type: 'string' } },
    defaults: () => ({ status: 'active' }),
  },
  tool: { rules: { type: { type: 'string', required: true, oneOf: TOOL_TYPES }, function: { type: 'object' } } },
  file: { rules: { name: { type: 'string' } } },
  'knowledge-base': { label: 'Knowledge base', rules: { name: { type: 'string' }, fileIds: { type: 'array' } } },
  workflow: { rules: { name: { type: 'string', required: true }, nodes: { type: 'array', required: true }, edges: { type: 'array', required: true } } },
  squad: { rules: { name: { type: 'string' }, members: { type: 'array', required: true, min: 1 } } },
  'test-suite': { label: 'Test suite', rules: { name: { type: 'string' }, phoneNumberId: { type: 'string' } } },
  'test-suite/test': { label: 'Test', rules: { type: { type: 'string', required: true, oneOf: ['voice', 'chat'] }, script: { type: 'string', required: true }, name: { type: 'string' } }, defaults: () => ({ scorers: [] }) },
  'test-suite/run': { label: 'Test suite run', rules: { name: { type: 'string' } }, defaults: () => ({ status: 'queued', testResults: [] }) },
  org: { label: 'Organization', unscoped: true, rules: { name: { type: 'string' }, hipaaEnabled: { type: 'boolean' }, concurrencyLimit: { type: 'number' } } },
  token: { rules: { tag: { type: 'string', oneOf: ['private', 'public'] }, name: { type: 'string' } }, defaults: () => ({ tag: 'private', value: randomUUID() }) },
  credential: { rules: { provider: { type: 'string', required: true }, name: { type: 'string' } } },
  template: { rules: { type: { type: 'string', required: true, oneOf: ['tool'] }, name: { type: 'string' }, visibility: { type: 'string', oneOf: ['public', 'private'] } }, defaults: () => ({ visibility: 'private' }) },
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
