// Runs the emulator's campaigns on the simulated clock: waits for `schedulePlan.earliestAt`, then
// dials its contacts in order, at most `maxConcurrency` at once, asking the campaign's server first
// when `predialPlan` is set; follows each call to its end; stops dialling at `latestAt`, on a
// cancellation or an archive; ends the campaign once every contact has its outcome.
import type { CampaignEventType, Json } from '../../messages/index.js';
import type { SimClock } from '../calls/index.js';
import { deepMerge } from '../store/merge.js';
import type { EmulatorRecord, RecordEvent } from '../store/record.js';
import type { Rec, Store } from '../store/store.js';
import { ACTIVE, addContacts, callCounters, contactsOf, failedCall } from './contacts.js';
import { askPredial, predialOn, sendEvent } from './events.js';
import { isObject } from '../../json.js';

/** What the engine needs from the emulator. */
export interface EngineDeps {
  store: Store;
  record: EmulatorRecord;
  /** Starts a stored call (the call runner). */
  startCall(call: Rec): void;
  /** A simulated clock at the calls' speed. */
  clock(): SimClock;
  /** Asks for the data file to be written. */
  changed(): void;
}

/** The platform's default `maxConcurrency`. */
export const DEFAULT_MAX_CONCURRENCY = 10;

interface Job {
  id: string;
  /** Contacts before this position have left `pending` (they are dialled in order). */
  cursor: number;
  clock: SimClock;
  /** Aborted to wake the job: a call ended, the schedule changed, the campaign stopped. */
  wake: AbortController;
  done: Promise<void>;
}

const time = (iso: unknown): number | undefined => (typeof iso === 'string' && Number.isFinite(Date.parse(iso)) ? Date.parse(iso) : undefined);

/** Runs every campaign of one emulator. */
export class CampaignEngine {
  private readonly jobs = new Map<string, Job>();
  /** The campaign and contact of each call a campaign placed, while it runs. */
  private readonly callsOf = new Map<string, { campaignId: string; contact: Rec }>();
  /** Each campaign's contacts in dial order (the store's own objects), read once. */
  private readonly lists = new Map<string, Rec[]>();
  /** Each campaign's messages on their way, in order. */
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Aborted by a reset: nothing more is sent, changed or recorded for the campaigns of before. */
  private dropped = new AbortController();

  constructor(private readonly deps: EngineDeps) {
    // Acted on after every listener has had the event: what it leads to is recorded after it, not inside it.
    deps.record.subscribe((e) => {
      if (e.kind === 'call.status' && this.callsOf.has(e.callId)) queueMicrotask(() => this.onEvent(e));
    });
  }

  /** Starts a campaign just created (its contacts stored): dialling begins after the answer. */
  start(campaign: Rec): void {
    this.lists.delete(campaign.id);
    this.refresh(campaign);
    this.run(campaign.id);
  }

  /**
   * Runs the campaigns the store holds scheduled or under way (a data file's, whose calls were ended
   * at start; the state a reset returns to; seeds and imports, whose contacts are stored now).
   */
  resume(): void {
    for (const campaign of this.deps.store.all('campaign')) {
      if (!ACTIVE.has(String(campaign.status))) continue;
      if (!this.contacts(campaign.id).length) {
        addContacts(this.deps.store, campaign);
        this.lists.delete(campaign.id);
        this.deps.changed();
      }
      for (const c of this.contacts(campaign.id)) if (c.status === 'contact.dispatched') this.settleContact(campaign, c);
      this.run(campaign.id);
    }
  }

  /** Wakes a campaign's job (its schedule changed). */
  poke(campaignId: string): void {
    this.jobs.get(campaignId)?.wake.abort();
  }

  /** Stops dialling a campaign (`PATCH status`, `DELETE`): its running calls finish; `status` is what it becomes. */
  stop(campaign: Rec, status: 'cancelled' | 'ended'): void {
    if (!ACTIVE.has(String(campaign.status))) return;
    const reason = campaign.status === 'scheduled' ? 'campaign.scheduled.ended-by-user' : 'campaign.in-progress.ended-by-user';
    Object.assign(campaign, { status, endedReason: reason });
    this.refresh(campaign);
    this.emit(campaign, 'campaign.cancelled', { endedReason: reason });
    this.poke(campaign.id);
  }

  /** Archives a campaign (`DELETE`), cancelling it first when it still runs. */
  archive(campaign: Rec): void {
    if (campaign.status === 'archived') return;
    this.stop(campaign, 'cancelled');
    campaign.status = 'archived';
    this.refresh(campaign);
    this.emit(campaign, 'campaign.archived');
  }

  /** A stored campaign by id. */
  find(campaignId: string): Rec | undefined {
    return this.deps.store.get('campaign', campaignId);
  }

  /** A campaign's contacts in dial order. */
  contacts(campaignId: string): Rec[] {
    let list = this.lists.get(campaignId);
    if (!list) this.lists.set(campaignId, (list = contactsOf(this.deps.store, campaignId)));
    return list;
  }

  /** The campaign as the API shows it: its `callsCounter*` worked out from its contacts and their calls as they are now. */
  view(campaign: Rec): Rec {
    return Object.assign(campaign, callCounters(this.deps.store, campaign, this.contacts(campaign.id)));
  }

  /**
   * Resolves with the campaign once it has stopped (ended, cancelled or archived), none of its calls
   * runs and its messages are delivered; undefined when it is not (or no longer) stored.
   */
  async finished(campaignId: string): Promise<Rec | undefined> {
    for (;;) {
      const c = this.find(campaignId);
      if (!c) return undefined;
      const calling = [...this.callsOf.values()].some((o) => o.campaignId === campaignId);
      if (!ACTIVE.has(String(c.status)) && !calling) {
        const sending = this.chains.get(campaignId);
        if (!sending) return c;
        await sending;
        continue;
      }
      await new Promise<void>((resolve) => {
        const stop = this.deps.record.subscribe((e) => {
          if ((e.kind === 'campaign' && e.campaignId === campaignId) || e.kind === 'call.status') {
            stop();
            resolve();
          }
        });
      });
    }
  }

  /** Drops every job silently (a reset): the store is about to be replaced. */
  cancelAll(): void {
    this.dropped.abort();
    this.dropped = new AbortController();
    for (const job of this.jobs.values()) job.wake.abort();
    this.jobs.clear();
    this.chains.clear();
    this.callsOf.clear();
    this.lists.clear();
  }

  private campaign(job: Job): Rec | undefined {
    if (this.jobs.get(job.id) !== job) return undefined;
    return this.deps.store.get('campaign', job.id);
  }

  private run(id: string): void {
    if (this.jobs.has(id)) return;
    const job: Job = { id, cursor: 0, clock: this.deps.clock(), wake: new AbortController(), done: Promise.resolve() };
    this.jobs.set(id, job);
    // Begun after the current request is answered, so its reply shows the campaign as created.
    job.done = Promise.resolve()
      .then(() => this.dial(job))
      .catch((err: unknown) => this.log(job.id, `Campaign error: ${(err as Error).message}`))
      .finally(() => {
        if (this.jobs.get(id) === job) this.jobs.delete(id);
      });
  }

  /** Waits simulated time (forever when `ms` is undefined) until it passes or the job is woken; false once the job is dropped. */
  private async pause(job: Job, ms: number | undefined): Promise<boolean> {
    const signal = job.wake.signal;
    if (!signal.aborted) {
      if (ms === undefined) await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      else await job.clock.sleep(ms, signal);
    }
    if (job.wake.signal.aborted) job.wake = new AbortController();
    return this.jobs.get(job.id) === job;
  }

  private async dial(job: Job): Promise<void> {
    for (;;) {
      const c = this.campaign(job);
      if (!c || c.status !== 'scheduled') break;
      const wait = (time((c.schedulePlan as Json | undefined)?.earliestAt) ?? 0) - job.clock.now();
      if (wait <= 0) {
        c.status = 'in-progress';
        this.refresh(c);
        this.emit(c, 'campaign.started', typeof c.workflowId === 'string' ? { workflowId: c.workflowId } : {});
        break;
      }
      if (!(await this.pause(job, Math.min(wait, 2 ** 31 - 1)))) return;
    }
    for (;;) {
      const c = this.campaign(job);
      if (!c || c.status !== 'in-progress') return;
      const contacts = this.contacts(c.id);
      const latest = time((c.schedulePlan as Json | undefined)?.latestAt);
      if (latest !== undefined && job.clock.now() >= latest) return this.closeWindow(c, contacts);
      while (job.cursor < contacts.length && contacts[job.cursor]?.status !== 'contact.pending') job.cursor++;
      const next = contacts[job.cursor];
      let running = 0;
      for (const owner of this.callsOf.values()) if (owner.campaignId === c.id) running++;
      if (!next) return this.settle(c);
      const max = typeof c.maxConcurrency === 'number' && c.maxConcurrency >= 1 ? Math.floor(c.maxConcurrency) : DEFAULT_MAX_CONCURRENCY;
      if (running >= max) {
        if (!(await this.pause(job, latest === undefined ? undefined : Math.max(0, latest - job.clock.now())))) return;
        continue;
      }
      await this.place(job, c, next);
    }
  }

  /** One contact: its pre-dial check when the campaign asks for one, then its call. */
  private async place(job: Job, c: Rec, contact: Rec): Promise<void> {
    if (predialOn(c)) {
      const verdict = await askPredial({ ...this.deps, now: () => job.clock.now() }, c, contact, this.dropped.signal);
      if (!this.campaign(job)) return;
      if (!verdict.dial) {
        contact.status = verdict.skipped ? 'contact.skipped' : 'contact.predial-failed';
        if (!verdict.skipped) contact.error = verdict.error;
        this.deps.store.touch(contact);
        this.refresh(c);
        if (verdict.skipped) this.emit(c, 'contact.skipped', { contactId: contact.id });
        else this.emit(c, 'contact.predial-failed', { contactId: contact.id, error: verdict.error });
        return;
      }
      // The campaign may have been stopped while its server was thinking.
      if (c.status !== 'in-progress') return;
    }
    const call = this.deps.store.insert('call', this.callBody(c, contact));
    this.callsOf.set(call.id, { campaignId: c.id, contact });
    Object.assign(contact, { status: 'contact.dispatched', callId: call.id, dispatchedAt: new Date(job.clock.now()).toISOString() });
    this.deps.store.touch(contact);
    (c.calls as Json)[call.id] = { contactId: contact.id, number: contact.number, status: call.status };
    this.refresh(c);
    this.emit(c, 'contact.dispatched', { contactId: contact.id });
    this.deps.startCall(call);
  }

  /** The outbound call of a contact: the campaign's caller and number, the contact's overrides merged over the campaign's. */
  private callBody(c: Rec, contact: Rec): Json {
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

  private onEvent(e: RecordEvent): void {
    if (e.kind !== 'call.status') return;
    const owner = this.callsOf.get(e.callId);
    const c = owner ? this.deps.store.get('campaign', owner.campaignId) : undefined;
    if (!owner || !c) return;
    const call = this.deps.store.get('call', e.callId);
    if (isObject(c.calls) && isObject(c.calls[e.callId])) (c.calls[e.callId] as Json).status = e.status;
    this.deps.store.touch(c);
    if (e.status !== 'ended') return;
    this.callsOf.delete(e.callId);
    if (call) this.settleContact(c, owner.contact, call);
    this.refresh(c, false);
    this.poke(c.id);
    // A stopped campaign no longer has a job dialling: its last call ending ends nothing more.
    if (!this.jobs.has(c.id) && c.status === 'in-progress') this.settle(c);
  }

  /** A dispatched contact whose call ended (or is gone): completed or failed, with the call's reason. */
  private settleContact(c: Rec, contact: Rec, call = typeof contact.callId === 'string' ? this.deps.store.get('call', contact.callId) : undefined): void {
    if (call && call.status !== 'ended') return;
    const endedReason = String(call?.endedReason ?? 'worker-shutdown');
    const failed = !call || failedCall(call);
    Object.assign(contact, { status: failed ? 'contact.failed' : 'contact.completed', endedReason });
    this.deps.store.touch(contact);
    if (isObject(c.calls) && typeof contact.callId === 'string' && isObject(c.calls[contact.callId])) (c.calls[contact.callId] as Json).endedReason = endedReason;
    this.emit(c, failed ? 'contact.failed' : 'contact.completed', { contactId: contact.id, callId: String(contact.callId), endedReason });
  }

  /** Ends the campaign once no contact is waiting and no call is running. */
  private settle(c: Rec): void {
    const contacts = this.contacts(c.id);
    if (c.status !== 'in-progress' || contacts.some((x) => x.status === 'contact.pending' || x.status === 'contact.dispatched')) return;
    Object.assign(c, { status: 'ended', endedReason: 'campaign.ended.success' });
    this.refresh(c);
    this.emit(c, 'campaign.ended', { endedReason: 'campaign.ended.success' });
  }

  /** `latestAt` passed: contacts not yet dialled are skipped (never retried), and the campaign ends once its calls do. */
  private closeWindow(c: Rec, contacts: readonly Rec[]): void {
    for (const contact of contacts) {
      if (contact.status !== 'contact.pending') continue;
      contact.status = 'contact.skipped';
      contact.error = 'the schedule window closed (schedulePlan.latestAt) before it was dialled';
      this.deps.store.touch(contact);
      this.emit(c, 'contact.skipped', { contactId: contact.id });
    }
    this.log(c.id, 'The schedule window closed (schedulePlan.latestAt): contacts not yet dialled are skipped');
    this.refresh(c);
    this.settle(c);
  }

  /** Marks the campaign changed (with its counters worked out now, for the data file, unless `counters` is false) and tells the record. */
  private refresh(c: Rec, counters = true): void {
    this.deps.store.touch(counters ? this.view(c) : c);
    this.deps.record.add({ kind: 'campaign', campaignId: c.id, status: String(c.status) });
    this.deps.changed();
  }

  /** Sends a lifecycle event after the campaign's earlier ones. */
  private emit(c: Rec, type: CampaignEventType, data: Record<string, string> = {}): void {
    const job = this.jobs.get(c.id);
    const at = job?.clock.now() ?? Date.now();
    const signal = this.dropped.signal;
    const sent = (this.chains.get(c.id) ?? Promise.resolve()).then(() => (signal.aborted ? undefined : sendEvent({ ...this.deps, now: () => at }, c, type, data, signal)));
    this.chains.set(c.id, sent);
    void sent.finally(() => {
      if (this.chains.get(c.id) === sent) this.chains.delete(c.id);
    });
  }

  private log(campaignId: string, text: string): void {
    this.deps.record.add({ kind: 'campaign', campaignId, status: String(this.deps.store.get('campaign', campaignId)?.status ?? ''), text });
  }
}
