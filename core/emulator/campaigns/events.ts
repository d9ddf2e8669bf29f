// What a campaign sends to its own `server`: `campaign.predial` before each contact when its
// `predialPlan` is on (the answer decides), and its lifecycle events as its `serverMessages` ask.
// Every delivery lands in the record under the campaign's id.
import type { CampaignEventType, Json } from '../../messages/index.js';
import { buildServerMessage } from '../../messages/index.js';
import { deliver, serverOf, withCredential } from '../calls/index.js';
import type { ServerTarget } from '../calls/index.js';
import type { EmulatorRecord } from '../store/record.js';
import type { Rec, Store } from '../store/store.js';
import { predialContact } from './contacts.js';

/** What the messages need from the emulator. */
export interface EventDeps {
  store: Store;
  record: EmulatorRecord;
  /** The campaign's simulated time, epoch ms. */
  now: () => number;
}

/** A pre-dial decision: dial, skip (`eligible: false`), or a pre-dial failure with its reason. */
export type Predial = { dial: true } | { dial: false; skipped: true } | { dial: false; skipped: false; error: string };

function target(deps: EventDeps, campaign: Rec): ServerTarget | undefined {
  return withCredential(serverOf(campaign), (id) => deps.store.get('credential', id));
}

/** Whether the campaign asks its server before each contact (`predialPlan` set, not disabled). */
export function predialOn(campaign: Rec): boolean {
  const plan = campaign.predialPlan as Json | undefined;
  return plan !== undefined && plan !== null && plan.enabled !== false;
}

/** Asks the campaign's server whether a contact may be dialled; anything but a boolean `eligible` is a pre-dial failure. */
export async function askPredial(deps: EventDeps, campaign: Rec, contact: Rec, signal?: AbortSignal): Promise<Predial> {
  const to = target(deps, campaign);
  if (!to) return { dial: false, skipped: false, error: 'the campaign has no server to ask' };
  const message = buildServerMessage('campaign.predial', { timestamp: Math.round(deps.now()), data: { campaignId: campaign.id, contact: predialContact(contact) } });
  const done = await deliver(deps.record, to, campaign.id, message, signal);
  if (done.delivery.error) return { dial: false, skipped: false, error: done.delivery.error };
  const eligible = done.answer?.eligible;
  if (eligible === true) return { dial: true };
  if (eligible === false) return { dial: false, skipped: true };
  return { dial: false, skipped: false, error: 'the answer has no boolean "eligible"' };
}

/** Sends one lifecycle event when the campaign's `serverMessages` lists it; resolves once delivered (or not sent). */
export async function sendEvent(deps: EventDeps, campaign: Rec, eventType: CampaignEventType, data: Record<string, string> = {}, signal?: AbortSignal): Promise<void> {
  const wanted = Array.isArray(campaign.serverMessages) ? (campaign.serverMessages as unknown[]) : [];
  if (!wanted.includes(eventType)) return;
  const to = target(deps, campaign);
  if (!to) return;
  const message = buildServerMessage('campaign.event', { timestamp: Math.round(deps.now()), data: { campaignId: campaign.id, eventType, data } });
  await deliver(deps.record, to, campaign.id, message, signal);
}
