// THE list of platform endpoints (with the groups spread in from account.ts, voices.ts and
// published.ts). The client, the CLI and the emulator are generated from this table; adding an
// endpoint means adding one entry here (or in one of those groups) and nowhere else.
import { account } from './account.js';
import { del, get, patch, post, put, shape } from './define.js';
import type { OpKey, Upload } from './define.js';
import type * as M from './models.js';
import type * as N from './models-more.js';
import { published } from './published.js';
import { PAGED, PLAIN, TIME } from './query-sets.js';
import { voices } from './voices.js';

export type { Upload, UploadSource } from './define.js';

type Any = M.Open;

/** Every platform operation, grouped by resource as in the path. */
export const catalogue = {
  call: {
    create: post({ path: '/call', summary: 'Create a call (outbound when a customer is given)', shape: shape<M.CallInput, M.Call>() }),
    list: get({ path: '/call', list: 'plain', query: ['id', 'assistantId', 'phoneNumberId', ...PLAIN], summary: 'List calls', shape: shape<never, M.Call[]>() }),
    get: get({ path: '/call/{id}', summary: 'Get a call', shape: shape<never, M.Call>() }),
    update: patch({ path: '/call/{id}', summary: 'Update a call', shape: shape<M.Update<M.CallInput>, M.Call>() }),
    delete: del({ path: '/call/{id}', summary: 'Delete a call', shape: shape<never, M.Call>() }),
    phone: post({ path: '/call/phone', deprecated: true, summary: 'Create an outbound phone call', shape: shape<M.CallInput, M.Call>() }),
    web: post({ path: '/call/web', browser: true, summary: 'Create a web call the browser can join', shape: shape<M.CallInput, M.Call>() }),
    recording: {
      get: get({ path: '/call/{id}/mono-recording', response: 'binary', summary: 'Download the mono recording of an ended call', shape: shape<never, Uint8Array>() }),
      stereo: get({ path: '/call/{id}/stereo-recording', response: 'binary', summary: 'Download the stereo recording (one side per channel)', shape: shape<never, Uint8Array>() }),
      video: get({ path: '/call/{id}/video-recording', response: 'binary', summary: 'Download the video recording of a web call', shape: shape<never, Uint8Array>() }),
      customer: get({ path: '/call/{id}/customer-recording', response: 'binary', summary: "Download the customer's side of the recording", shape: shape<never, Uint8Array>() }),
      assistant: get({ path: '/call/{id}/assistant-recording', response: 'binary', summary: "Download the assistant's side of the recording", shape: shape<never, Uint8Array>() }),
    },
    pcap: get({ path: '/call/{id}/pcap', response: 'binary', summary: 'Download the packet capture of a call', shape: shape<never, Uint8Array>() }),
    logs: get({ path: '/call/{id}/call-logs', response: 'binary', summary: 'Download the log file of a call', shape: shape<never, Uint8Array>() }),
  },
  v2: {
    call: {
      list: get({
        path: '/v2/call',
        list: 'paginated',
        query: [
          'assistantIdAny',
          'assistantOverrides',
          'customer',
          'customerNumberAny',
          'assistantId',
          'assistantName',
          'squadId',
          'squadName',
          'id',
          'idAny',
          'costLe',
          'costGe',
          'cost',
          'successEvaluation',
          'endedReason',
          'phoneNumberId',
          'phoneNumberIdAny',
          'structuredOutputs',
          'score',
          'sortBy',
          ...PAGED,
        ],
        summary: 'List calls, paginated',
        shape: shape<never, M.Paginated<M.Call>>(),
      }),
      export: get({ path: '/v2/call/export', query: ['assistantId', 'id', 'idAny', 'format', 'columns', ...TIME], summary: 'Export calls as CSV', shape: shape<never, string>() }),
      metadata: get({
        path: '/v2/call/metadata',
        list: 'paginated',
        query: ['assistantId', 'id', 'costLe', 'costGe', 'cost', 'successEvaluation', 'endedReason', ...PAGED],
        summary: 'List call metadata, paginated',
        shape: shape<never, M.Paginated<M.Call>>(),
      }),
    },
    assistant: {
      list: get({ path: '/v2/assistant', list: 'paginated', query: PAGED, summary: 'List assistants, paginated', shape: shape<never, M.Paginated<M.Assistant>>() }),
    },
    campaign: {
      create: post({ path: '/v2/campaign', summary: 'Create a campaign (v2)', shape: shape<Any, M.Campaign>() }),
      list: get({
        path: '/v2/campaign',
        list: 'paginated',
        query: ['id', 'status', 'includeCounters', 'sortBy', ...PAGED],
        summary: 'List campaigns with their counters (v2)',
        shape: shape<never, M.Paginated<N.CampaignV2>>(),
      }),
      get: get({ path: '/v2/campaign/{id}', query: ['includeCounters'], summary: 'Get a campaign with its counters (v2)', shape: shape<never, N.CampaignV2>() }),
      update: patch({ path: '/v2/campaign/{id}', summary: 'Update a campaign (v2)', shape: shape<Any, M.Campaign>() }),
      delete: del({ path: '/v2/campaign/{id}', summary: 'Delete a campaign (v2)', shape: shape<never, M.Campaign>() }),
      contacts: get({
        path: '/v2/campaign/{id}/contacts',
        list: 'paginated',
        query: ['status', 'limit', 'sortBy', 'page'],
        summary: 'List the contacts of a campaign and what happened to each',
        shape: shape<never, M.Paginated<N.CampaignContact>>(),
      }),
    },
    knowledgeBase: {
      create: post({ path: '/v2/knowledge-base', summary: 'Create a knowledge base (v2)', shape: shape<{ name: string } & Any, N.KnowledgeBaseV2>() }),
      list: get({ path: '/v2/knowledge-base', list: 'plain', query: ['limit'], summary: 'List knowledge bases (v2)', shape: shape<never, N.KnowledgeBaseV2[]>() }),
      get: get({ path: '/v2/knowledge-base/{id}', summary: 'Get a knowledge base with its files (v2)', shape: shape<never, N.KnowledgeBaseV2WithFiles>() }),
      update: patch({ path: '/v2/knowledge-base/{id}', summary: 'Update a knowledge base (v2)', shape: shape<Any, N.KnowledgeBaseV2>() }),
      delete: del({ path: '/v2/knowledge-base/{id}', summary: 'Delete a knowledge base (v2)', shape: shape<never, N.KnowledgeBaseV2>() }),
      file: {
        list: get({ path: '/v2/knowledge-base/{id}/file', list: 'plain', summary: 'List the files of a knowledge base (v2)', shape: shape<never, N.KnowledgeBaseV2File[]>() }),
        create: post({ path: '/v2/knowledge-base/{id}/file', summary: 'Attach an uploaded file to a knowledge base (v2)', shape: shape<{ fileId: string } & Any, N.KnowledgeBaseV2File>() }),
        delete: del({ path: '/v2/knowledge-base/{id}/file/{fileId}', summary: 'Detach a file from a knowledge base (v2)', shape: shape<never, N.KnowledgeBaseV2File>() }),
        retry: post({ path: '/v2/knowledge-base/{id}/file/{fileId}/retry', body: 'none', summary: 'Index a file again after it failed (v2)', shape: shape<never, N.KnowledgeBaseV2File>() }),
      },
    },
    phoneNumber: {
      list: get({ path: '/v2/phone-number', list: 'paginated', query: ['search', 'sortBy', ...PAGED], summary: 'List phone numbers, paginated', shape: shape<never, M.Paginated<M.PhoneNumber>>() }),
    },
  },
  chat: {
    list: get({
      path: '/chat',
      list: 'paginated',
      query: ['id', 'assistantId', 'assistantIdAny', 'squadId', 'sessionId', 'previousChatId', 'idAny', 'sortBy', ...PAGED],
      summary: 'List chats',
      shape: shape<never, M.Paginated<M.Chat>>(),
    }),
    create: post({ path: '/chat', summary: 'Send a chat message and get the reply', shape: shape<Any, M.Chat>() }),
    get: get({ path: '/chat/{id}', summary: 'Get a chat', shape: shape<never, M.Chat>() }),
    delete: del({ path: '/chat/{id}', summary: 'Delete a chat', shape: shape<never, M.Chat>() }),
    responses: post({ path: '/chat/responses', summary: 'Chat in the OpenAI Responses format', shape: shape<Any, Any>() }),
    web: post({ path: '/chat/web', browser: true, summary: 'Chat from a browser with a public key', shape: shape<Any, M.Chat>() }),
    webResponses: post({ path: '/chat/web/responses', browser: true, summary: 'Chat from a browser in the OpenAI Responses format', shape: shape<Any, Any>() }),
    completions: post({
      path: '/chat/completions',
      summary: 'Chat with a workflow in the OpenAI chat-completions format',
      shape: shape<{ messages: Array<{ role: string; content: string }> } & Any, N.ChatCompletion>(),
    }),
  },
  campaign: {
    create: post({ path: '/campaign', summary: 'Create a campaign', shape: shape<Any, M.Campaign>() }),
    list: get({ path: '/campaign', list: 'paginated', query: ['id', 'status', 'sortBy', ...PAGED], summary: 'List campaigns', shape: shape<never, M.Paginated<M.Campaign>>() }),
    listPaginated: get({ path: '/campaign/paginated', list: 'paginated', query: ['id', 'status', ...PAGED], summary: 'List campaigns, paginated', shape: shape<never, M.Paginated<M.Campaign>>() }),
    get: get({ path: '/campaign/{id}', summary: 'Get a campaign', shape: shape<never, M.Campaign>() }),
    update: patch({ path: '/campaign/{id}', summary: 'Update a campaign', shape: shape<Any, M.Campaign>() }),
    delete: del({ path: '/campaign/{id}', summary: 'Delete a campaign', shape: shape<never, M.Campaign>() }),
  },
  session: {
    create: post({ path: '/session', summary: 'Create a session', shape: shape<Any, M.Session>() }),
    list: get({
      path: '/session',
      list: 'paginated',
      query: ['id', 'name', 'assistantId', 'assistantIdAny', 'squadId', 'workflowId', 'customerNumberAny', 'idAny', 'phoneNumberId', 'phoneNumberIdAny', 'sortBy', ...PAGED],
      summary: 'List sessions',
      shape: shape<never, M.Paginated<M.Session>>(),
    }),
    get: get({ path: '/session/{id}', summary: 'Get a session', shape: shape<never, M.Session>() }),
    update: patch({ path: '/session/{id}', summary: 'Update a session', shape: shape<Any, M.Session>() }),
    delete: del({ path: '/session/{id}', summary: 'Delete a session', shape: shape<never, M.Session>() }),
  },
  support: {
    ticket: post({ path: '/support/ticket', summary: 'Open a support ticket', shape: shape<Any, { id: string } & Any>() }),
  },
  assistant: {
    create: post({ path: '/assistant', summary: 'Create an assistant', shape: shape<M.AssistantInput, M.Assistant>() }),
    list: get({ path: '/assistant', list: 'plain', query: PLAIN, summary: 'List assistants', shape: shape<never, M.Assistant[]>() }),
    get: get({ path: '/assistant/{id}', summary: 'Get an assistant', shape: shape<never, M.Assistant>() }),
    update: patch({ path: '/assistant/{id}', summary: 'Update an assistant (merge)', shape: shape<M.Update<M.AssistantInput>, M.Assistant>() }),
    replace: put({ path: '/assistant/{id}', summary: 'Replace an assistant', shape: shape<M.AssistantInput, M.Assistant>() }),
    delete: del({ path: '/assistant/{id}', summary: 'Delete an assistant', shape: shape<never, M.Assistant>() }),
    version: get({ path: '/assistant/{id}/version', summary: 'List the versions of an assistant', shape: shape<never, M.Assistant[]>() }),
  },
  phoneNumber: {
    importTwilio: post({ path: '/phone-number/import/twilio', deprecated: true, summary: 'Import a Twilio number', shape: shape<Any, M.PhoneNumber>() }),
    importVonage: post({ path: '/phone-number/import/vonage', deprecated: true, summary: 'Import a Vonage number', shape: shape<Any, M.PhoneNumber>() }),
    create: post({ path: '/phone-number', summary: 'Create a phone number', shape: shape<M.PhoneNumberInput, M.PhoneNumber>() }),
    list: get({ path: '/phone-number', list: 'plain', query: PLAIN, summary: 'List phone numbers', shape: shape<never, M.PhoneNumber[]>() }),
    get: get({ path: '/phone-number/{id}', summary: 'Get a phone number', shape: shape<never, M.PhoneNumber>() }),
    update: patch({ path: '/phone-number/{id}', summary: 'Update a phone number', shape: shape<M.Update<M.PhoneNumberInput>, M.PhoneNumber>() }),
    delete: del({ path: '/phone-number/{id}', summary: 'Delete a phone number', shape: shape<never, M.PhoneNumber>() }),
  },
  tool: {
    create: post({ path: '/tool', summary: 'Create a tool', shape: shape<M.ToolInput, M.Tool>() }),
    list: get({ path: '/tool', list: 'plain', query: PLAIN, summary: 'List tools', shape: shape<never, M.Tool[]>() }),
    get: get({ path: '/tool/{id}', summary: 'Get a tool', shape: shape<never, M.Tool>() }),
    update: patch({ path: '/tool/{id}', summary: 'Update a tool', shape: shape<M.Update<M.ToolInput>, M.Tool>() }),
    delete: del({ path: '/tool/{id}', summary: 'Delete a tool', shape: shape<never, M.Tool>() }),
    codeTest: post({ path: '/tool/code/test', body: 'none', summary: 'Run a code tool once and see its result', shape: shape<never, N.CodeTestResult>() }),
  },
  file: {
    upload: post({ path: '/file/upload', body: 'multipart', deprecated: true, summary: 'Upload a file (old path)', shape: shape<Upload, M.File>() }),
    create: post({ path: '/file', body: 'multipart', summary: 'Upload a file', shape: shape<Upload, M.File>() }),
    list: get({ path: '/file', list: 'plain', query: ['purpose', ...PLAIN], summary: 'List files', shape: shape<never, M.File[]>() }),
    get: get({ path: '/file/{id}', summary: 'Get a file', shape: shape<never, M.File>() }),
    update: patch({ path: '/file/{id}', summary: 'Update a file', shape: shape<Any, M.File>() }),
    delete: del({ path: '/file/{id}', summary: 'Delete a file', shape: shape<never, M.File>() }),
  },
  knowledgeBase: {
    create: post({ path: '/knowledge-base', summary: 'Create a knowledge base', shape: shape<Any, M.KnowledgeBase>() }),
    list: get({ path: '/knowledge-base', list: 'plain', query: PLAIN, summary: 'List knowledge bases', shape: shape<never, M.KnowledgeBase[]>() }),
    get: get({ path: '/knowledge-base/{id}', summary: 'Get a knowledge base', shape: shape<never, M.KnowledgeBase>() }),
    update: patch({ path: '/knowledge-base/{id}', summary: 'Update a knowledge base', shape: shape<Any, M.KnowledgeBase>() }),
    delete: del({ path: '/knowledge-base/{id}', summary: 'Delete a knowledge base', shape: shape<never, M.KnowledgeBase>() }),
  },
  workflow: {
    list: get({ path: '/workflow', list: 'plain', summary: 'List workflows', shape: shape<never, M.Workflow[]>() }),
    create: post({ path: '/workflow', summary: 'Create a workflow', shape: shape<M.WorkflowInput, M.Workflow>() }),
    get: get({ path: '/workflow/{id}', summary: 'Get a workflow', shape: shape<never, M.Workflow>() }),
    delete: del({ path: '/workflow/{id}', summary: 'Delete a workflow', shape: shape<never, M.Workflow>() }),
    update: patch({ path: '/workflow/{id}', summary: 'Update a workflow', shape: shape<M.Update<M.WorkflowInput>, M.Workflow>() }),
    generate: post({ path: '/workflow/generate', summary: 'Generate a workflow from transcripts', shape: shape<Any, M.WorkflowInput>() }),
  },
  squad: {
    create: post({ path: '/squad', summary: 'Create a squad', shape: shape<M.SquadInput, M.Squad>() }),
    list: get({ path: '/squad', list: 'plain', query: ['idAny', ...PLAIN], summary: 'List squads', shape: shape<never, M.Squad[]>() }),
    get: get({ path: '/squad/{id}', summary: 'Get a squad', shape: shape<never, M.Squad>() }),
    update: patch({ path: '/squad/{id}', summary: 'Update a squad', shape: shape<M.Update<M.SquadInput>, M.Squad>() }),
    delete: del({ path: '/squad/{id}', summary: 'Delete a squad', shape: shape<never, M.Squad>() }),
  },
  testSuite: {
    list: get({ path: '/test-suite', list: 'paginated', query: PAGED, summary: 'List test suites', shape: shape<never, M.Paginated<M.TestSuite>>() }),
    create: post({ path: '/test-suite', summary: 'Create a test suite', shape: shape<Any, M.TestSuite>() }),
    get: get({ path: '/test-suite/{id}', summary: 'Get a test suite', shape: shape<never, M.TestSuite>() }),
    update: patch({ path: '/test-suite/{id}', summary: 'Update a test suite', shape: shape<Any, M.TestSuite>() }),
    delete: del({ path: '/test-suite/{id}', summary: 'Delete a test suite', shape: shape<never, M.TestSuite>() }),
    test: {
      list: get({ path: '/test-suite/{testSuiteId}/test', list: 'paginated', query: PAGED, summary: 'List the tests of a suite', shape: shape<never, M.Paginated<M.Test>>() }),
      create: post({ path: '/test-suite/{testSuiteId}/test', summary: 'Add a test to a suite', shape: shape<Any, M.Test>() }),
      get: get({ path: '/test-suite/{testSuiteId}/test/{id}', summary: 'Get a test', shape: shape<never, M.Test>() }),
      update: patch({ path: '/test-suite/{testSuiteId}/test/{id}', summary: 'Update a test', shape: shape<Any, M.Test>() }),
      delete: del({ path: '/test-suite/{testSuiteId}/test/{id}', summary: 'Delete a test', shape: shape<never, M.Test>() }),
    },
    run: {
      list: get({ path: '/test-suite/{testSuiteId}/run', list: 'paginated', query: PAGED, summary: 'List the runs of a suite', shape: shape<never, M.Paginated<M.TestRun>>() }),
      create: post({ path: '/test-suite/{testSuiteId}/run', summary: 'Start a run of a suite', shape: shape<Any, M.TestRun>() }),
      get: get({ path: '/test-suite/{testSuiteId}/run/{id}', summary: 'Get a run', shape: shape<never, M.TestRun>() }),
      update: patch({ path: '/test-suite/{testSuiteId}/run/{id}', summary: 'Update a run', shape: shape<Any, M.TestRun>() }),
      delete: del({ path: '/test-suite/{testSuiteId}/run/{id}', summary: 'Delete a run', shape: shape<never, M.TestRun>() }),
    },
  },
  analytics: {
    query: post({ path: '/analytics', summary: 'Run analytics queries over calls', shape: shape<M.AnalyticsRequest, M.AnalyticsResult[]>() }),
  },
  log: {
    list: get({ path: '/log', list: 'paginated', query: ['callId', ...PAGED], summary: 'List call logs', shape: shape<never, M.Paginated<M.Log>>() }),
    delete: del({ path: '/log', query: ['callId'], summary: 'Delete call logs', shape: shape<never, unknown>() }),
  },
  logs: {
    list: get({
      path: '/logs',
      list: 'paginated',
      deprecated: true,
      query: ['type', 'webhookType', 'assistantId', 'phoneNumberId', 'customerId', 'squadId', 'callId', ...PAGED],
      summary: 'List logs',
      shape: shape<never, M.Paginated<M.Log>>(),
    }),
    delete: del({ path: '/logs', deprecated: true, query: ['type', 'assistantId', 'phoneNumberId', 'customerId', 'squadId', 'callId'], summary: 'Delete logs', shape: shape<never, unknown>() }),
  },
  ...account,
  ...voices,
  ...published,
} as const;

/** The catalogue's type. */
export type Catalogue = typeof catalogue;

/** The dotted key of every catalogue operation, e.g. `'call.create'`: a misspelt key is a type error. */
export type CatalogueKey = OpKey<Catalogue>;
