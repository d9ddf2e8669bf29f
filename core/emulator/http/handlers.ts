// Every catalogue operation mapped to its handler: actions by their catalogue keys, the rest
// by the generic CRUD of their collection. Nothing here lists endpoints; paths come from the catalogue.
import type { CatalogueKey, Entry } from '../../catalogue/index.js';
import { pathParamNames } from '../../catalogue/index.js';
import { analytics } from '../actions/analytics.js';
import { createCall, deleteLogs, exportCalls, phoneCallHandler, webCall } from '../actions/calls.js';
import { chatResponses, createChat } from '../actions/chat.js';
import * as lib from '../actions/library.js';
import * as misc from '../actions/misc.js';
import * as org from '../actions/org.js';
import * as ev from '../actions/evals.js';
import * as pub from '../actions/published.js';
import * as rec from '../actions/recordings.js';
import * as camp from '../campaigns/handlers.js';
import type { Handler, Reply } from './context.js';
import { collectionOf, crudHandler, placeOf } from '../resources/crud.js';
import { compileList } from '../resources/lists.js';
import type { LifecycleType } from '../calls/index.js';
import type { Rec } from '../store/store.js';
import { badRequest } from '../errors.js';
import { VoiceError } from '../../errors.js';

type Children = ReadonlyMap<string, readonly { collection: string; field: string }[]>;
type Maker = (entry: Entry, children: Children) => Handler;

function logList(entry: Entry): Handler {
  const run = compileList(entry.op.query, entry.op.list ?? 'paginated');
  return (ctx) => ({ status: 200, body: run(ctx.store.all('log'), ctx.query) });
}

function assistantChange(entry: Entry, children: Children): Handler {
  return misc.versioned(crudHandler(entry, children) as (ctx: Parameters<Handler>[0]) => Reply);
}

/** The generic CRUD of an operation, then the lifecycle message the platform sends about the record it answered with. */
function announcing(type: LifecycleType): Maker {
  return (entry, children) => {
    const inner = crudHandler(entry, children) as Handler;
    return async (ctx) => {
      const reply = await inner(ctx);
      const rec = reply.body as Rec | undefined;
      if (reply.status < 300 && rec && typeof rec.id === 'string') ctx.env.calls?.notify(type, rec);
      return reply;
    };
  };
}

/** A call still running cannot be deleted: the answer says so and `call.delete.failed` goes to its server. */
function refuseRunning(inner: Handler): Handler {
  return (ctx) => {
    const call = ctx.store.get('call', String(ctx.params.id));
    if (call && ctx.env.calls?.isRunning?.(call.id)) {
      ctx.env.calls.notify('call.delete.failed', call);
      throw badRequest([`call ${call.id} is ${String(call.status)}: a call can be deleted once it has ended`]);
    }
    return inner(ctx);
  };
}

/** Handlers for operations that do more than store and fetch, by catalogue keys (typed: a misspelt key does not compile). */
const ACTIONS: Readonly<Partial<Record<CatalogueKey, Maker>>> = {
  'call.create': () => createCall,
  'call.phone': () => phoneCallHandler,
  'call.web': () => webCall,
  'v2.call.export': exportCalls,
  'call.delete': (entry, children) => refuseRunning(announcing('call.deleted')(entry, children)),
  'chat.delete': announcing('chat.deleted'),
  'session.create': announcing('session.created'),
  'session.update': announcing('session.updated'),
  'session.delete': announcing('session.deleted'),
  'chat.create': () => createChat,
  'chat.web': () => createChat,
  'chat.responses': () => chatResponses,
  'chat.webResponses': () => chatResponses,
  'support.ticket': () => misc.supportTicket,
  'assistant.update': assistantChange,
  'assistant.replace': assistantChange,
  'assistant.version': () => misc.assistantVersions,
  'phoneNumber.importTwilio': () => misc.importNumber('twilio'),
  'phoneNumber.importVonage': () => misc.importNumber('vonage'),
  'file.create': () => misc.uploadFile,
  'file.upload': () => misc.uploadFile,
  'workflow.generate': () => misc.generateWorkflow,
  'analytics.query': () => analytics,
  'log.list': logList,
  'log.delete': () => deleteLogs(200, ['callId']),
  'logs.list': logList,
  'logs.delete': () => deleteLogs(202, ['type', 'assistantId', 'phoneNumberId', 'customerId', 'squadId', 'callId']),
  'org.create': () => org.createOrg,
  'org.list': () => org.listOrgs,
  'org.delete': () => org.deleteOrg,
  'org.users': () => org.listUsers,
  'org.leave': () => org.leave,
  'org.removeMember': () => org.removeMember,
  'org.invite': () => org.invite,
  'org.updateRole': () => org.updateRole,
  'org.auth': () => org.orgAuth,
  'credential.session': () => misc.credentialSession,
  'credential.webhook': () => misc.credentialWebhook,
  'credential.trigger': () => misc.credentialTrigger,
  'template.pinned': () => misc.pinnedTemplates,
  'voiceLibrary.get': () => lib.libraryVoices,
  'voiceLibrary.accents': () => lib.libraryAccents,
  'voiceLibrary.sync': () => lib.syncProvider,
  'voiceLibrary.syncAll': () => lib.syncAll,
  'voiceLibrary.createSesameVoice': () => lib.createSesameVoice,
  'provider.workflows': () => lib.providerWorkflows,
  'provider.workflowHooks': () => lib.providerHooks,
  'provider.locations': () => lib.providerLocations,
  'provider.voicesSearch': () => lib.searchVoices,
  'provider.voiceSearch': () => lib.searchVoices,
  'provider.voicesAdd': () => lib.addProviderVoice,
  'provider.voiceAdd': () => lib.addProviderVoice,
  'elevenLabs.clone': () => lib.cloneVoice,
  'call.recording.get': () => rec.recording('mono'),
  'call.recording.stereo': () => rec.recording('stereo'),
  'call.recording.customer': () => rec.recording('customer'),
  'call.recording.assistant': () => rec.recording('assistant'),
  'call.recording.video': () => rec.videoRecording,
  'call.pcap': () => rec.pcap,
  'call.logs': () => rec.callLogs,
  'v2.campaign.contacts': () => camp.campaignContacts,
  'campaign.create': () => camp.createCampaign,
  'v2.campaign.create': () => camp.createCampaign,
  'campaign.get': () => camp.getCampaign(false),
  'v2.campaign.get': () => camp.getCampaign(true),
  'campaign.list': camp.listCampaigns,
  'campaign.listPaginated': camp.listCampaigns,
  'v2.campaign.list': camp.listCampaigns,
  'campaign.update': camp.updateCampaign,
  'v2.campaign.update': camp.updateCampaign,
  'campaign.delete': () => camp.archiveCampaign,
  'v2.campaign.delete': () => camp.archiveCampaign,
  'v2.knowledgeBase.get': () => pub.getKnowledgeBase,
  'v2.knowledgeBase.file.list': () => pub.listKbFiles,
  'v2.knowledgeBase.file.create': () => pub.attachKbFile,
  'v2.knowledgeBase.file.delete': () => pub.detachKbFile,
  'v2.knowledgeBase.file.retry': () => pub.retryKbFile,
  'chat.completions': () => pub.chatCompletions,
  'tool.codeTest': () => pub.codeTest,
  'structuredOutput.run': () => pub.runStructuredOutput,
  'eval.run.create': () => ev.createEvalRun,
  'eval.run.list': (e) => ev.evalRunRead('list', e.op.query),
  'eval.run.get': (e) => ev.evalRunRead('get', e.op.query),
  'eval.simulation.concurrency': () => ev.concurrency,
  'eval.simulation.scenario.generate': () => ev.generateScenarios,
  'eval.simulation.run.create': () => ev.createSimulationRun,
  'eval.simulation.run.list': (e) => ev.simRunRead('list', e.op.query),
  'eval.simulation.run.get': (e) => ev.simRunRead('get', e.op.query),
  'eval.simulation.run.cancel': () => ev.cancelSimRun,
  'eval.simulation.run.item.list': (e) => ev.listItems(e.op.query),
  'eval.simulation.run.item.get': () => ev.getItem,
  'eval.simulation.run.item.cancel': () => ev.cancelItem,
  'eval.simulation.run.item.suggest': () => ev.suggest,
  'reporting.insight.run': () => pub.runInsight,
  'reporting.insight.preview': () => pub.previewInsight,
  'reporting.board.metricsOverview': () => pub.metricsOverview,
  'metrics.get': () => pub.metrics,
  'provider.resource.create': (e) => pub.providerResources('create', e.op.query) as Handler,
  'provider.resource.list': (e) => pub.providerResources('list', e.op.query) as Handler,
  'provider.resource.get': (e) => pub.providerResources('get', e.op.query) as Handler,
  'provider.resource.update': (e) => pub.providerResources('update', e.op.query) as Handler,
  'provider.resource.delete': (e) => pub.providerResources('delete', e.op.query) as Handler,
};

/** Which collections nest under which, from the catalogue's nested resources (for cascading deletes). */
export function nesting(entries: readonly Entry[]): Children {
  const out = new Map<string, { collection: string; field: string }[]>();
  for (const entry of entries) {
    const place = placeOf(entry);
    if (!place.parent || entry.action !== 'create') continue;
    const list = out.get(place.parent.collection) ?? [];
    list.push({ collection: collectionOf(entry), field: place.parent.param });
    out.set(place.parent.collection, list);
  }
  return out;
}

/** The handler of one catalogue entry; throws when an operation has none (caught by tests). */
export function handlerFor(entry: Entry, children: Children): { handler: Handler; params: string[] } {
  const maker = ACTIONS[entry.keys.join('.') as CatalogueKey];
  const handler = maker ? maker(entry, children) : crudHandler(entry, children);
  if (!handler) throw new VoiceError(`emulator: no handler for ${entry.op.method} ${entry.op.path} (${entry.keys.join('.')})`);
  return { handler, params: pathParamNames(entry.op.path) };
}
