// A campaign's dialling job on the simulated clock: waits for `schedulePlan.earliestAt`, then
// dials its contacts in order, at most `maxConcurrency` at once, asking the campaign's server first
// when `predialPlan` is set, and skips the contacts not yet dialled once `latestAt` passes. The
// engine (engine.ts) owns the jobs and keeps the books as the calls end.
import type { CampaignEventType, Json } from '../../messages/index.js';
import type { SimClock } from '../calls/index.js';
import { deepMerge } from '../store/merge.js';
import type { EmulatorRecord } from '../store/record.js';
import type { Rec, Store } from '../store/store.js';
import { askPredial, predialOn } from './events.js';
import { isObject } from '../../json.js';

/** The platform's default `maxConcurrency`. */
export const DEFAULT_MAX_CONCURRENCY = 10;

/** One campaign's dialling, while it runs. */
export interface Job {
  id: string;
  /** Contacts before this position have left `pending` (they are dialled in order). */
  cursor: number;
  clock: SimClock;
  /** Aborted to wake the job: a call ended, the schedule changed, the campaign stopped. */
  wake: AbortController;
  done: Promise<void>;
}

/** What a dialling job needs from the engine that runs it. */
export interface DialHost {
  store: Store;
  record: EmulatorRecord;
  /** Starts a stored call (the call runner). */
  startCall(call: Rec): void;
  /** Whether `job` is still its campaign's job (not stopped, replaced or dropped by a reset). */
  current(job: Job): boolean;
  /** A campaign's contacts in dial order. */
  contacts(campaignId: string): Rec[];
  /** How many of the campaign's calls are running. */
  running(campaignId: string): number;
  /** Books a call placed for a contact, so that its end settles the contact. */
  placed(callId: string, campaignId: string, contact: Rec): void;
  /** Marks the campaign changed (its counters worked out now) and tells the record. */
  refresh(c: Rec): void;
  /** Sends a lifecycle event after the campaign's earlier ones. */
  emit(c: Rec, type: CampaignEventType, data?: Record<string, string>): void;
  /** Adds a line to the campaign's record. */
  log(campaignId: string, text: string): void;
  /** Ends the campaign once no contact is waiting and no call is running. */
  settle(c: Rec): void;
  /** Aborted by a reset: nothing more is sent for the campaigns of before. */
  dropped(): AbortSignal;
}

const time = (iso: unknown): number | undefined => (typeof iso === 'string' && Number.isFinite(Date.parse(iso)) ? Date.parse(iso) : undefined);

function campaignOf(host: DialHost, job: Job): Rec | undefined {
  return host.current(job) ? host.store.get('campaign', job.id) : undefined;
}

/** Waits simulated time (forever when `ms` is undefined) until it passes or the job is woken; false once the job is dropped. */
async function pause(host: DialHost, job: Job, ms: number | undefined): Promise<boolean> {
  const signal = job.wake.signal;
  if (!signal.aborted) {
    if (ms === undefined) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    else await job.clock.sleep(ms, signal);
  }
  if (job.wake.signal.aborted) job.wake = new AbortController();
  return host.current(job);
}

/** Runs a campaign's job: the wait for its start, then its contacts, until it stops or every contact is dialled. */
export async function dial(host: DialHost, job: Job): Promise<void> {
  for (;;) {
    const c = campaignOf(host, job);
    if (!c || c.status !== 'scheduled') break;
    const wait = (time((c.schedulePlan as Json | undefined)?.earliestAt) ?? 0) - job.clock.now();
    if (wait <= 0) {
      c.status = 'in-progress';
      host.refresh(c);
      host.emit(c, 'campaign.started', typeof c.workflowId === 'string' ? { workflowId: c.workflowId } : {});
      break;
    }
    if (!(await pause(host, job, Math.min(wait, 2 ** 31 - 1)))) return;
  }
  for (;;) {
    const c = campaignOf(host, job);
    if (!c || c.status !== 'in-progress') return;
    const contacts = host.contacts(c.id);
    const latest = time((c.schedulePlan as Json | undefined)?.latestAt);
    if (latest !== undefined && job.clock.now() >= latest) return closeWindow(host, c, contacts);
    while (job.cursor < contacts.length && contacts[job.cursor]?.status !== 'contact.pending') job.cursor++;
    const next = contacts[job.cursor];
    const running = host.running(c.id);
    if (!next) return host.settle(c);
    const max = typeof c.maxConcurrency === 'number' && c.maxConcurrency >= 1 ? Math.floor(c.maxConcurrency) : DEFAULT_MAX_CONCURRENCY;
    if (running >= max) {
      if (!(await pause(host, job, latest === undefined ? undefined : Math.max(0, latest - job.clock.now())))) return;
      continue;
    }
    await place(host, job, c, next);
  }
}

/** One contact: its pre-dial check when the campaign asks for one, then its call. */
async function place(host: DialHost, job: Job, c: Rec, contact: Rec): Promise<void> {
  if (predialOn(c)) {
    const verdict = await askPredial({ store: host.store, record: host.record, now: () => job.clock.now() }, c, contact, host.dropped());
    if (!campaignOf(host, job)) return;
    if (!verdict.dial) {
      contact.status = verdict.skipped ? 'contact.skipped' : 'contact.predial-failed';
      if (!verdict.skipped) contact.error = verdict.error;
      host.store.touch(contact);
      host.refresh(c);
      if (verdict.skipped) host.emit(c, 'contact.skipped', { contactId: contact.id });
      else host.emit(c, 'contact.predial-failed', { contactId: contact.id, error: verdict.error });
      return;
    }
    // The campaign may have been stopped while its server was thinking.
    if (c.status !== 'in-progress') return;
  }
  const call = host.store.insert('call', callBody(c, contact));
  host.placed(call.id, c.id, contact);
  Object.assign(contact, { status: 'contact.dispatched', callId: call.id, dispatchedAt: new Date(job.clock.now()).toISOString() });
  host.store.touch(contact);
  (c.calls as Json)[call.id] = { contactId: contact.id, number: contact.number, status: call.status };
  host.refresh(c);
  host.emit(c, 'contact.dispatched', { contactId: contact.id });
  host.startCall(call);
}

/** The outbound call of a contact: the campaign's caller and number, the contact's overrides merged over the campaign's. */
function callBody(c: Rec, contact: Rec): Json {
  const overrides = (key: 'assistantOverrides' | 'squadOverrides'): Json | undefined => {
    const merged: Json = isObject(c[key]) ? structuredClone(c[key]) : {};
    if (isObject(contact[key])) deepMerge(merged, contact[key]);
    return Object.keys(merged).length ? merged : undefined;
  };
  const body: Json = { type: 'outboundPhoneCall', status: 'queued', phoneCallProvider: 'vapi', phoneCallTransport: 'pstn', cost: 0, campaignId: c.id };
  for (const key of ['assistantId', 'squadId', 'workflowId'] as const) if (typeof c[key] === 'string') body[key] = c[key];
  const phoneNumberId = contact.phoneNumberId ?? c.phoneNumberId;
  if (typeof phoneNumberId === 'string') body.phoneNumberId = phoneNumberId;
  for (const key of ['assistantOverrides', 'squadOverrides'] as const) {
    const merged = overrides(key);
    if (merged) body[key] = merged;
  }
  body.customer = contact.customer;
  return body;
}

/** `latestAt` passed: contacts not yet dialled are skipped (never retried), and the campaign ends once its calls do. */
function closeWindow(host: DialHost, c: Rec, contacts: readonly Rec[]): void {
  for (const contact of contacts) {
    if (contact.status !== 'contact.pending') continue;
    contact.status = 'contact.skipped';
    contact.error = 'the schedule window closed (schedulePlan.latestAt) before it was dialled';
    host.store.touch(contact);
    host.emit(c, 'contact.skipped', { contactId: contact.id });
  }
  host.log(c.id, 'The schedule window closed (schedulePlan.latestAt): contacts not yet dialled are skipped');
  host.refresh(c);
  host.settle(c);
}
