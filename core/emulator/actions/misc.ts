// The remaining actions: uploads, phone-number imports, assistant versions, support
// tickets, generated workflows, credential sessions and webhooks, pinned templates.
import { randomUUID } from 'node:crypto';
import type { Ctx, Handler, Reply } from '../http/context.js';
import { createIn, find } from '../resources/crud.js';
import type { Place } from '../resources/crud.js';
import { badRequest } from '../errors.js';
import { check } from '../resources/validate.js';
import type { Rules } from '../resources/validate.js';
import { randomName, topLevel } from './place.js';

/** `POST /file` (and `/file/upload`): stores the upload's name, size and content type. */
export const uploadFile: Handler = (ctx) => {
  const part = ctx.form?.files.find((f) => f.field === 'file') ?? ctx.form?.files[0];
  if (!part) throw badRequest('file should not be empty (send multipart/form-data with a "file" part)');
  const purpose = ctx.form?.fields.purpose;
  const file = createIn(ctx, topLevel('file'), {
    object: 'file',
    status: 'done',
    name: part.filename,
    originalName: part.filename,
    bytes: part.size,
    mimetype: part.contentType,
    ...(typeof purpose === 'string' ? { purpose } : {}),
  });
  return { status: 201, body: file, changed: true };
};

/** `POST /phone-number/import/{twilio,vonage}`: a phone number of that provider. */
export function importNumber(provider: 'twilio' | 'vonage'): Handler {
  const numberField = `${provider}PhoneNumber`;
  const rules: Rules =
    provider === 'twilio'
      ? { twilioPhoneNumber: { type: 'string', required: true }, twilioAccountSid: { type: 'string', required: true }, twilioAuthToken: { type: 'string' } }
      : { vonagePhoneNumber: { type: 'string', required: true }, credentialId: { type: 'string', required: true } };
  return (ctx) => {
    check(ctx.body, rules);
    const { [numberField]: number, twilioAuthToken: _secret, ...rest } = ctx.body;
    const rec = createIn(ctx, topLevel('phone-number'), { provider, number, status: 'active', ...rest });
    return { status: 201, body: rec, changed: true };
  };
}

const ASSISTANT: Place = { ...topLevel('assistant'), idParam: 'id' };

/** Wraps an assistant update so the state before the change is kept as a version. */
export function versioned(inner: (ctx: Ctx) => Reply): Handler {
  return (ctx) => {
    const before = structuredClone(find(ctx, ASSISTANT));
    const reply = inner(ctx);
    ctx.store.insert('assistant/version', { assistantId: before.id, assistant: before });
    return reply;
  };
}

/** `GET /assistant/{id}/version`: every state of the assistant, newest (current) first. */
export const assistantVersions: Handler = (ctx) => {
  const current = find(ctx, ASSISTANT);
  const older = ctx.store
    .all('assistant/version')
    .filter((v) => v.assistantId === current.id)
    .map((v) => v.assistant as Record<string, unknown>);
  const states = [...older, current].map((state, i) => ({ ...state, version: i + 1 }));
  return { status: 200, body: states.reverse() };
};

const CATEGORIES = ['bug-report', 'feature-request', 'doc-update', 'pricing', 'sales', 'others'];

/** `POST /support/ticket`: stores the ticket. */
export const supportTicket: Handler = (ctx) => {
  check(ctx.body, {
    category: { type: 'string', required: true, oneOf: CATEGORIES },
    subject: { type: 'string', required: true },
    message: { type: 'string', required: true },
    callDetails: { type: 'string' },
  });
  const ticket = ctx.store.insert('support/ticket', { status: 'open', ...ctx.body });
  return { status: 201, body: ticket, changed: true };
};

/** `POST /workflow/generate`: a small editable workflow (greet, help, end), not stored. */
export const generateWorkflow: Handler = (ctx) => {
  check(ctx.body, { toolIds: { type: 'array' } });
  const toolIds = (ctx.body.toolIds as string[] | undefined) ?? [];
  const nodes = [
    { type: 'conversation', name: 'greeting', isStart: true, prompt: 'Greet the caller and ask how you can help.' },
    { type: 'conversation', name: 'help', prompt: 'Answer the question using the tools available.', ...(toolIds.length ? { toolIds } : {}) },
    { type: 'conversation', name: 'goodbye', prompt: 'Thank the caller and say goodbye.' },
  ];
  const edges = [
    { from: 'greeting', to: 'help', condition: { type: 'ai', prompt: 'The caller asked a question' } },
    { from: 'help', to: 'goodbye', condition: { type: 'ai', prompt: 'The caller has no more questions' } },
  ];
  return { status: 200, body: { name: 'Generated workflow', nodes, edges, globalPrompt: 'You are a helpful, concise phone assistant.' } };
};

/** `POST /credential/session`: a session token for a provider's sign-in flow. */
export const credentialSession: Handler = (ctx) => {
  check(ctx.body, { provider: { type: 'string', required: true } });
  return { status: 201, body: { sessionToken: `cs_${randomName(32)}` } };
};

/** `POST /credential/webhook` (no auth): acknowledges the provider's notification. */
export const credentialWebhook: Handler = () => ({ status: 201, body: { received: true } });

/** `POST /credential/trigger`: runs a credential action (simulated). */
export const credentialTrigger: Handler = (ctx) => {
  check(ctx.body, { action_name: { type: 'string', required: true }, input: { type: 'object', required: true } });
  return { status: 201, body: { id: randomUUID(), action_name: ctx.body.action_name, status: 'completed', output: {} } };
};

/** `GET /template/pinned`: the public templates, newest first. */
export const pinnedTemplates: Handler = (ctx) => ({
  status: 200,
  body: ctx.store
    .all('template')
    .filter((t) => t.visibility === 'public')
    .reverse(),
});
