// Runs the emulator's campaigns: starts each one's dialling job (dialer.ts) on the simulated clock,
// follows each call it placed to its end, settles the contact and ends the campaign once every
// contact has its outcome; stops, archives and resets; sends the lifecycle events in order.
import type { CampaignEventType, Json } from '../../messages/index.js';
import type { SimClock } from '../calls/index.js';
import type { EmulatorRecord, RecordEvent } from '../store/record.js';
import type { Rec, Store } from '../store/store.js';
import { ACTIVE, addContacts, callCounters, contactsOf, failedCall } from './contacts.js';
import { dial } from './dialer.js';
import type { DialHost, Job } from './dialer.js';
import { sendEvent } from './events.js';
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
  /** What the dialling jobs see of the engine. */
  private readonly host: DialHost;

  constructor(private readonly deps: EngineDeps) {
    this.host = {
      store: deps.store,
      record: deps.record,
      startCall: (call) => deps.startCall(call),
      current: (job) => this.jobs.get(job.id) === job,
      contacts: (id) => this.contacts(id),
      running: (id) => [...this.callsOf.values()].filter((o) => o.campaignId === id).length,
      placed: (callId, campaignId, contact) => void this.callsOf.set(callId, { campaignId, contact }),
      refresh: (c) => this.refresh(c),
      emit: (c, type, data) => this.emit(c, type, data),
      log: (id, text) => this.log(id, text),
      settle: (c) => this.settle(c),
      dropped: () => this.dropped.signal,
    };
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

  private run(id: string): void {
    if (this.jobs.has(id)) return;
    const job: Job = { id, cursor: 0, clock: this.deps.clock(), wake: new AbortController(), done: Promise.resolve() };
    this.jobs.set(id, job);
    // Begun after the current request is answered, so its reply shows the campaign as created.
    job.done = Promise.resolve()
      .then(() => dial(this.host, job))
      .catch((err: unknown) => this.log(job.id, `Campaign error: ${(err as Error).message}`))
      .finally(() => {
        if (this.jobs.get(id) === job) this.jobs.delete(id);
      });
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
