// Every catalogue operation mapped to its handler: actions by their catalogue keys, the rest
// by the generic CRUD of their collection. Nothing here lists endpoints; paths come from the catalogue.
import type { Entry } from '../catalogue/index.js';
import { pathParamNames } from '../catalogue/index.js';
import { analytics } from './actions/analytics.js';
import { createCall, deleteLogs, exportCalls, phoneCallHandler, webCall } from './actions/calls.js';
import { chatResponses, createChat } from './actions/chat.js';
import * as lib from './actions/library.js';
import * as misc from './actions/misc.js';
import * as org from './actions/org.js';
import type { Handler, Reply } from './context.js';
import { collectionOf, crudHandler, placeOf } from './crud.js';
import { compileList } from './lists.js';

type Children = ReadonlyMap<string, readonly { collection: string; field: string }[]>;
type Maker = (entry: Entry, children: Children) => Handler;

function logList(entry: Entry): Handler {
  const run = compileList(entry.op.query, entry.op.list ?? 'paginated');
  return (ctx) => ({ status: 200, body: run(ctx.store.all('log'), ctx.query) });
}

function assistantChange(entry: Entry, children: Children): Handler {
  return misc.versioned(crudHandler(entry, children) as (ctx: Parameters<Handler>[0]) => Reply);
}

/** Handlers for operations that do more than store and fetch, by catalogue keys. */
const ACTIONS: Readonly<Record<string, Maker>> = {
  'call.create': () => createCall,
  'call.phone': () => phoneCallHandler,
  'call.web': () => webCall,
  'v2.call.export': exportCalls,
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
  const maker = ACTIONS[entry.keys.join('.')];
  const handler = maker ? maker(entry, children) : crudHandler(entry, children);
  if (!handler) throw new Error(`emulator: no handler for ${entry.op.method} ${entry.op.path} (${entry.keys.join('.')})`);
  return { handler, params: pathParamNames(entry.op.path) };
}
