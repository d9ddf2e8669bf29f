// A campaign's contacts: one stored record per customer (of `customers`, or of each `dialPlan`
// entry with its phone number), what happened to each, and the counters the campaign shows,
// always worked out from the contacts and their calls so they can never drift apart.
import type { Json } from '../../messages/index.js';
import type { Rec, Store } from '../store/store.js';
import { isObject } from '../../json.js';

/** The collection the contacts live in (not an API resource of its own: read through the campaign). */
export const CONTACTS = 'campaign-contact';

/** A contact's status (`CampaignContactWithOutcome.status`). */
export type ContactStatus = 'contact.pending' | 'contact.dispatched' | 'contact.completed' | 'contact.failed' | 'contact.skipped' | 'contact.predial-failed';

/** The statuses a campaign is still running in. */
export const ACTIVE = new Set(['scheduled', 'in-progress']);

/** Stores a contact per customer of a new campaign, in dial order. */
export function addContacts(store: Store, campaign: Rec): void {
  const entries: { phoneNumberId?: unknown; customers?: unknown }[] = Array.isArray(campaign.dialPlan)
    ? (campaign.dialPlan as Json[])
    : [{ phoneNumberId: campaign.phoneNumberId, customers: campaign.customers }];
  let position = 0;
  for (const entry of entries) {
    for (const raw of Array.isArray(entry.customers) ? entry.customers : []) {
      if (!isObject(raw)) continue;
      const { assistantOverrides, squadOverrides, ...customer } = raw;
      store.insert(CONTACTS, {
        campaignId: campaign.id,
        position: ++position,
        number: String(customer.number ?? customer.sipUri ?? ''),
        ...(typeof customer.name === 'string' ? { name: customer.name } : {}),
        ...(isObject(assistantOverrides) ? { assistantOverrides } : {}),
        ...(isObject(squadOverrides) ? { squadOverrides } : {}),
        customer,
        ...(typeof entry.phoneNumberId === 'string' ? { phoneNumberId: entry.phoneNumberId } : {}),
        status: 'contact.pending',
      });
    }
  }
}

/** A campaign's contacts in dial order. */
export function contactsOf(store: Store, campaignId: string): Rec[] {
  return store
    .all(CONTACTS)
    .filter((c) => c.campaignId === campaignId)
    .sort((a, b) => Number(a.position) - Number(b.position));
}

/** A contact as `campaign.predial` carries it (`CampaignContact`). */
export function predialContact(contact: Rec): Json {
  const out: Json = { id: contact.id, campaignId: contact.campaignId, orgId: contact.orgId, number: contact.number, createdAt: contact.createdAt };
  if (contact.name !== undefined) out.name = contact.name;
  if (contact.assistantOverrides !== undefined) out.assistantOverrides = contact.assistantOverrides;
  if (contact.squadOverrides !== undefined) out.squadOverrides = contact.squadOverrides;
  return out;
}

/** A contact as the contacts list shows it (`CampaignContactWithOutcome`). */
export function contactOutcome(contact: Rec): Json {
  const out: Json = { id: contact.id, number: contact.number, status: contact.status };
  for (const key of ['name', 'callId', 'dispatchedAt', 'endedReason']) if (contact[key] !== undefined) out[key] = contact[key];
  return out;
}

/** Whether an ended call counts as a human picking up (`callMetrics.connected`): answered, not voicemail. */
export function connected(call: Rec | undefined): boolean {
  return Boolean(call?.startedAt) && call?.endedReason !== 'voicemail';
}

/** Whether a contact's ended call failed (never answered, or an error ended it) rather than completed. */
export function failedCall(call: Rec): boolean {
  const reason = String(call.endedReason ?? '');
  if (reason === 'voicemail') return false;
  return !call.startedAt || /error|fault|failed|did-not-answer|busy/.test(reason);
}

/** The `callsCounter*` fields of a campaign, from its contacts and their calls as they are now. */
export function callCounters(store: Store, campaign: Rec, contacts: readonly Rec[]): Json {
  let scheduled = 0;
  let queued = 0;
  let inProgress = 0;
  let ended = 0;
  let voicemail = 0;
  for (const contact of contacts) {
    if (contact.status === 'contact.pending') {
      // Once a campaign stops, its scheduled calls are deleted: pending contacts are no longer calls to come.
      if (ACTIVE.has(String(campaign.status))) scheduled++;
      continue;
    }
    const call = typeof contact.callId === 'string' ? store.get('call', contact.callId) : undefined;
    if (!call) continue;
    if (call.status === 'ended') {
      ended++;
      if (call.endedReason === 'voicemail') voicemail++;
    } else if (call.status === 'in-progress' || call.status === 'forwarding') inProgress++;
    else queued++;
  }
  return { callsCounterScheduled: scheduled, callsCounterQueued: queued, callsCounterInProgress: inProgress, callsCounterEndedVoicemail: voicemail, callsCounterEnded: ended };
}

/** The v2 summary's `contactCounters` and `callMetrics`. */
export function summaryCounters(store: Store, contacts: readonly Rec[]): { contactCounters: Json; callMetrics: Json } {
  const counts: Record<ContactStatus, number> = {
    'contact.pending': 0,
    'contact.dispatched': 0,
    'contact.completed': 0,
    'contact.failed': 0,
    'contact.skipped': 0,
    'contact.predial-failed': 0,
  };
  let dialed = 0;
  let picked = 0;
  for (const c of contacts) {
    counts[c.status as ContactStatus]++;
    if (typeof c.callId !== 'string') continue;
    dialed++;
    if (connected(store.get('call', c.callId))) picked++;
  }
  return {
    contactCounters: {
      pending: counts['contact.pending'],
      dispatched: counts['contact.dispatched'],
      completed: counts['contact.completed'],
      failed: counts['contact.failed'],
      skipped: counts['contact.skipped'],
      predialFailed: counts['contact.predial-failed'],
    },
    callMetrics: { dialed, connected: picked },
  };
}
