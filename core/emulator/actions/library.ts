// The voice library and third-party provider endpoints, answered from fixtures/ plus the
// voices added to this emulator (stored in the `voice-library` collection).
import { randomUUID } from 'node:crypto';
import type { Ctx, Handler } from '../http/context.js';
import { badRequest, HttpError, notFound } from '../errors.js';
import { LIBRARY, PROVIDERS } from '../resources/fixtures.js';
import type { LibraryVoice, ProviderData } from '../resources/fixtures.js';
import type { Rec } from '../store/store.js';
import { check } from '../resources/validate.js';

const DIGITS = /^\d+$/;

function voicesOf(ctx: Ctx, provider: string): LibraryVoice[] {
  const own = ctx.store.all('voice-library').filter((v) => v.provider === provider && !v.isDeleted) as LibraryVoice[];
  return [...LIBRARY.filter((v) => v.provider === provider), ...own];
}

function text(ctx: Ctx, name: string): string | undefined {
  const v = ctx.query[name];
  return typeof v === 'string' && v ? v.toLowerCase() : undefined;
}

function count(ctx: Ctx, name: string, fallback: number, max: number): number {
  const raw = ctx.query[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !DIGITS.test(raw)) throw badRequest(`${name} must be an integer number`);
  const n = Number(raw);
  if (n > max) throw badRequest(`${name} must not be greater than ${max}`);
  return n;
}

/** `GET /voice-library/{provider}`: the provider's voices, filtered and paged. */
export const libraryVoices: Handler = (ctx) => {
  const keyword = text(ctx, 'keyword');
  const language = text(ctx, 'language');
  const accent = text(ctx, 'accent');
  const gender = text(ctx, 'gender');
  const limit = count(ctx, 'limit', 100, 1000);
  const page = Math.max(1, count(ctx, 'page', 1, Number.MAX_SAFE_INTEGER));
  const found = voicesOf(ctx, ctx.params.provider as string).filter(
    (v) =>
      (!keyword || `${v.name} ${v.description ?? ''}`.toLowerCase().includes(keyword)) &&
      (!language || v.language?.toLowerCase() === language || v.languageCode?.toLowerCase() === language) &&
      (!accent || v.accent?.toLowerCase() === accent) &&
      (!gender || v.gender?.toLowerCase() === gender),
  );
  return { status: 200, body: found.slice((page - 1) * limit, page * limit) };
};

/**
 * `GET /voice-library/{provider}/accents`: the provider's accents. The platform publishes this
 * answer as library voices, so each accent comes as its first voice (by accent name).
 */
export const libraryAccents: Handler = (ctx) => {
  const first = new Map<string, LibraryVoice>();
  for (const v of voicesOf(ctx, ctx.params.provider as string)) if (v.accent && !first.has(v.accent)) first.set(v.accent, v);
  return { status: 200, body: [...first.keys()].sort().map((a) => first.get(a)) };
};

/** `POST /voice-library/sync/{provider}`: the provider's voices after a (simulated) sync. */
export const syncProvider: Handler = (ctx) => ({ status: 200, body: voicesOf(ctx, ctx.params.provider as string) });

/** `POST /voice-library/sync`: the voices of the given providers (all by default). */
export const syncAll: Handler = (ctx) => {
  check(ctx.body, { providers: { type: 'array' } });
  const wanted = ctx.body.providers as string[] | undefined;
  const providers = wanted ?? [...new Set(LIBRARY.map((v) => v.provider))];
  return { status: 200, body: providers.flatMap((p) => voicesOf(ctx, p)) };
};

function addVoice(ctx: Ctx, provider: string, fields: Record<string, unknown>): Rec {
  return ctx.store.insert('voice-library', { provider, slug: String(fields.name).toLowerCase().replace(/\s+/g, '-'), isPublic: false, isDeleted: false, ...fields });
}

/** `POST /voice-library/create-sesame-voice`: a new Sesame voice in your library. */
export const createSesameVoice: Handler = (ctx) => {
  check(ctx.body, { voiceName: { type: 'string', required: true }, transcriptPlan: { type: 'object' } });
  const voice = addVoice(ctx, 'sesame', { providerId: randomUUID(), name: ctx.body.voiceName, isCloned: true });
  return { status: 201, body: voice, changed: true };
};

function provider(ctx: Ctx): ProviderData {
  const name = ctx.params.provider as string;
  const data = PROVIDERS[name];
  if (!data) throw new HttpError(404, `Provider ${name} has no sample data in the emulator (known: ${Object.keys(PROVIDERS).join(', ')})`);
  return data;
}

/** `GET /{provider}/workflows`: the provider's workflows, optionally for one location. */
export const providerWorkflows: Handler = (ctx) => {
  const loc = ctx.query.locationId;
  const all = provider(ctx).workflows;
  return { status: 200, body: { workflows: typeof loc === 'string' ? all.filter((w) => w.locationId === loc) : all } };
};

/** `GET /{provider}/workflows/{workflowId}/hooks`: the hooks of one workflow. */
export const providerHooks: Handler = (ctx) => {
  const hooks = provider(ctx).hooks[ctx.params.workflowId as string];
  if (!hooks) throw notFound('Workflow');
  return { status: 200, body: { hooks } };
};

/** `GET /{provider}/locations`: the provider's locations. */
export const providerLocations: Handler = (ctx) => ({ status: 200, body: { locations: provider(ctx).locations } });

/** `GET /{provider}/voice/search`: the provider's voices whose name matches. */
export const searchVoices: Handler = (ctx) => {
  const name = text(ctx, 'name');
  const found = voicesOf(ctx, ctx.params.provider as string).filter((v) => !name || v.name.toLowerCase().includes(name));
  return {
    status: 200,
    body: found.map((v) => ({ voiceId: v.providerId, name: v.name, publicOwnerId: `owner-${v.provider}`, description: v.description, gender: v.gender, accent: v.accent })),
  };
};

/** `POST /{provider}/voice/add`: adds a provider's voice to your library. */
export const addProviderVoice: Handler = (ctx) => {
  check(ctx.body, { ownerId: { type: 'string', required: true }, voiceId: { type: 'string', required: true }, name: { type: 'string', required: true } });
  const voice = addVoice(ctx, ctx.params.provider as string, { providerId: ctx.body.voiceId, name: ctx.body.name, ownerId: ctx.body.ownerId });
  return { status: 201, body: voice, changed: true };
};

/** `POST /11labs/voice/clone`: a cloned voice from uploaded samples. */
export const cloneVoice: Handler = (ctx) => {
  const form = ctx.form;
  const name = form?.fields.name;
  const problems: string[] = [];
  if (typeof name !== 'string' || !name) problems.push('name should not be empty');
  if (!form?.files.length) problems.push('files should contain at least one audio file');
  if (problems.length) throw badRequest(problems);
  const files = (form?.files ?? []).map((f) => ({ name: f.filename, bytes: f.size, mimetype: f.contentType }));
  const description = typeof form?.fields.description === 'string' ? form.fields.description : undefined;
  const voice = addVoice(ctx, '11labs', { providerId: randomUUID().replace(/-/g, '').slice(0, 20), name, description, isCloned: true, cloneBackend: '11labs', files });
  return { status: 201, body: { ...voice, voiceId: voice.providerId }, changed: true };
};
