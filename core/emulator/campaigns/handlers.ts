// The campaign endpoints (v1 and v2 share one store): a create is checked as the platform checks it
// and starts dialling; reads show the counters as they are now; a status-only PATCH or a DELETE
// stops it (a DELETE archives); `GET /v2/campaign/{id}/contacts` lists what happened to each contact.
import type { Entry } from '../../catalogue/index.js';
import type { Json } from '../../messages/index.js';
import type { Ctx, Handler, Reply } from '../http/context.js';
import { createIn, crudHandler, find } from '../resources/crud.js';
import { badRequest } from '../errors.js';
import type { Rec } from '../store/store.js';
import { topLevel } from '../actions/place.js';
import { ACTIVE, addContacts, contactOutcome, contactsOf, summaryCounters } from './contacts.js';
import { isObject } from '../../json.js';

type Children = ReadonlyMap<string, readonly { collection: string; field: string }[]>;

const CAMPAIGN = { ...topLevel('campaign'), idParam: 'id' };
/** The most customers one campaign takes. */
export const MAX_CUSTOMERS = 10_000;
/** What a running campaign keeps as it was created (`UpdateCampaignDTO`: only before it runs or once it ended). */
const FIXED_WHILE_RUNNING = ['assistantId', 'workflowId', 'squadId', 'phoneNumberId', 'dialPlan', 'schedulePlan'];
/** Fields a duplicate does not take from its source: they are the source's own. */
const OWN = new Set([
  'id',
  'orgId',
  'createdAt',
  'updatedAt',
  'status',
  'endedReason',
  'calls',
  'callsCounterScheduled',
  'callsCounterQueued',
  'callsCounterInProgress',
  'callsCounterEndedVoicemail',
  'callsCounterEnded',
]);

/** The body of a create with what `duplicateFromCampaignId` copies from its source (given fields win; customers only when none are given). */
function withSource(ctx: Ctx): Json {
  const id = ctx.body.duplicateFromCampaignId;
  if (typeof id !== 'string') return ctx.body;
  const source = ctx.store.get('campaign', id);
  if (!source) throw badRequest([`duplicateFromCampaignId: no campaign ${id}`]);
  const copied: Json = {};
  for (const [k, v] of Object.entries(source)) if (!OWN.has(k)) copied[k] = structuredClone(v);
  return { ...copied, ...ctx.body };
}

/** The platform's checks of a campaign to create, beyond its schema. */
function checkCreate(body: Json): void {
  const problems: string[] = [];
  const hasPlan = Array.isArray(body.dialPlan);
  if (hasPlan && body.phoneNumberId !== undefined) problems.push('phoneNumberId and dialPlan are mutually exclusive');
  if (!hasPlan && typeof body.phoneNumberId !== 'string') problems.push('phoneNumberId is required when dialPlan is not provided');
  if (!hasPlan && !Array.isArray(body.customers)) problems.push('customers is required when dialPlan is not provided');
  const callers = ['assistantId', 'workflowId', 'squadId'].filter((k) => body[k] !== undefined);
  if (callers.length > 1) problems.push(`only one of assistantId, workflowId or squadId can be used (got ${callers.join(', ')})`);
  if (body.predialPlan !== undefined && !isObject(body.server)) problems.push('predialPlan requires server (the URL the campaign.predial request goes to)');
  const customers = hasPlan ? (body.dialPlan as Json[]).flatMap((e) => (Array.isArray(e.customers) ? e.customers : [])) : Array.isArray(body.customers) ? body.customers : [];
  if (customers.length > MAX_CUSTOMERS) problems.push(`a campaign takes at most ${MAX_CUSTOMERS} customers (got ${customers.length})`);
  if (problems.length) throw badRequest(problems);
}

/** `POST /campaign`, `POST /v2/campaign`: stores the campaign and its contacts, then starts it. */
export const createCampaign: Handler = (ctx) => {
  const body = withSource(ctx);
  checkCreate(body);
  const { duplicateFromCampaignId: _d, ...fields } = body;
  const campaign = createIn(ctx, CAMPAIGN, fields);
  addContacts(ctx.store, campaign);
  ctx.env.campaigns?.start(campaign);
  return { status: 201, body: shown(ctx, campaign), changed: true };
};

function shown(ctx: Ctx, campaign: Rec): Rec {
  return ctx.env.campaigns ? ctx.env.campaigns.view(campaign) : campaign;
}

/** A v2 read: the counters as they are now, and with `includeCounters=true` the contact counters and call metrics. */
function summary(ctx: Ctx, campaign: Rec): Json {
  const view = shown(ctx, campaign);
  if (ctx.query.includeCounters !== 'true' || !ctx.env.campaigns) return view;
  return { ...view, ...summaryCounters(ctx.store, ctx.env.campaigns.contacts(campaign.id)) };
}

/** `GET /campaign/{id}` and `GET /v2/campaign/{id}`. */
export function getCampaign(v2: boolean): Handler {
  return (ctx) => {
    const campaign = find(ctx, CAMPAIGN);
    return { status: 200, body: v2 ? summary(ctx, campaign) : shown(ctx, campaign) };
  };
}

/** `GET /campaign`, `/campaign/paginated` and `/v2/campaign`: the generic list, each campaign shown as it is now. */
export function listCampaigns(entry: Entry, children: Children): Handler {
  const inner = crudHandler(entry, children) as Handler;
  return async (ctx) => {
    // `includeCounters` says what to show, not which campaigns: the generic list would filter by it.
    const { includeCounters: _shown, ...query } = ctx.query;
    const reply = await inner({ ...ctx, query });
    const page = reply.body as { results?: Rec[] };
    if (!Array.isArray(page.results)) return reply;
    return { ...reply, body: { ...page, results: page.results.map((c) => (entry.resource[0] === 'v2' ? summary(ctx, c) : shown(ctx, c))) } };
  };
}

/** `PATCH /campaign/{id}` (and v2): `status: cancelled` (or the v1 alias `ended`) stops it; other fields only while it does not run. */
export function updateCampaign(entry: Entry, children: Children): Handler {
  const inner = crudHandler(entry, children) as Handler;
  return async (ctx): Promise<Reply> => {
    const campaign = find(ctx, CAMPAIGN);
    const { status, ...rest } = ctx.body;
    const running = campaign.status === 'in-progress';
    const fixed = FIXED_WHILE_RUNNING.filter((k) => k in rest);
    if (running && fixed.length) throw badRequest([`${fixed.join(', ')} can only be updated if the campaign is not in progress or has ended`]);
    if (status !== undefined && !ACTIVE.has(String(campaign.status)))
      throw badRequest([`status cannot change: the campaign is ${String(campaign.status)} (only a scheduled or in-progress campaign can be stopped)`]);
    if (Object.keys(rest).length) await inner({ ...ctx, body: rest });
    if (status === 'cancelled' || status === 'ended') ctx.env.campaigns?.stop(campaign, status);
    if ('schedulePlan' in rest) ctx.env.campaigns?.poke(campaign.id);
    return { status: 200, body: shown(ctx, campaign), changed: true };
  };
}

/** `DELETE /campaign/{id}` (and v2): archives the campaign (cancelling it first when it runs); its record and contacts stay. */
export const archiveCampaign: Handler = (ctx) => {
  const campaign = find(ctx, CAMPAIGN);
  if (ctx.env.campaigns) ctx.env.campaigns.archive(campaign);
  else campaign.status = 'archived';
  return { status: 200, body: shown(ctx, ctx.store.touch(campaign)), changed: true };
};

/** `GET /v2/campaign/{id}/contacts`: the contacts in dial order (or by status), each with what happened to it. */
export const campaignContacts: Handler = (ctx) => {
  const campaign = find(ctx, CAMPAIGN);
  const limit = Number(ctx.query.limit ?? 100);
  const page = Number(ctx.query.page ?? 1);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw badRequest(['limit must be a whole number from 1 to 1000']);
  if (!Number.isInteger(page) || page < 1) throw badRequest(['page must not be less than 1']);
  const wanted = ctx.query.status === undefined ? undefined : new Set(Array.isArray(ctx.query.status) ? ctx.query.status : String(ctx.query.status).split(','));
  const all = ctx.env.campaigns?.contacts(campaign.id) ?? contactsOf(ctx.store, campaign.id);
  let contacts = all.filter((c) => !wanted || wanted.has(String(c.status)));
  if (ctx.query.sortBy === 'status') contacts = [...contacts].sort((a, b) => String(a.status).localeCompare(String(b.status)));
  const totalPages = Math.ceil(contacts.length / limit);
  return {
    status: 200,
    body: {
      results: contacts.slice((page - 1) * limit, page * limit).map(contactOutcome),
      metadata: { itemsPerPage: limit, totalItems: contacts.length, currentPage: page, totalPages, hasNextPage: page < totalPages },
    },
  };
};
