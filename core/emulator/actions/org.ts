// Organisations and their members (the default org, and the collection `org/X/user` members of
// org X live in, are in store/default-org.ts); the emulator's one user ("you") joins every new org.
import { createHmac } from 'node:crypto';
import type { Ctx, Handler } from '../http/context.js';
import { createIn } from '../resources/crud.js';
import { HttpError, notFound } from '../errors.js';
import type { Rec } from '../store/store.js';
import { check } from '../resources/validate.js';
import { topLevel } from './place.js';
import { addYou, members } from '../store/default-org.js';

const ORGS = topLevel('org');
const ROLES = ['admin', 'editor', 'viewer'] as const;

function org(ctx: Ctx): Rec {
  const found = ctx.store.get('org', ctx.params.id as string);
  if (!found) throw notFound('Organization');
  return found;
}

/** `GET /org`: the orgs you are a member of, newest first. */
export const listOrgs: Handler = (ctx) => ({
  status: 200,
  body: ctx.store
    .all('org')
    .filter((o) => ctx.store.get(members(o.id), ctx.store.userId))
    .reverse(),
});

/** `POST /org`: a new org with you as its admin. */
export const createOrg: Handler = (ctx) => {
  const created = createIn(ctx, ORGS);
  addYou(ctx.store, created.id);
  return { status: 201, body: created, changed: true };
};

/** `DELETE /org/{id}`: the org and its members go. */
export const deleteOrg: Handler = (ctx) => {
  const found = org(ctx);
  ctx.store.remove('org', found.id);
  ctx.store.removeWhere(members(found.id), () => true);
  return { status: 200, body: found, changed: true };
};

/** `GET /org/{id}/user`: the members, newest first. */
export const listUsers: Handler = (ctx) => ({ status: 200, body: [...ctx.store.all(members(org(ctx).id))].reverse() });

/** `POST /org/{id}/invite`: adds each email with the role (already-members keep theirs). */
export const invite: Handler = (ctx) => {
  const o = org(ctx);
  check(ctx.body, { emails: { type: 'array', required: true, min: 1 }, role: { type: 'string', required: true, oneOf: ROLES }, redirectTo: { type: 'string' } });
  const emails = ctx.body.emails as unknown[];
  if (!emails.every((e) => typeof e === 'string' && e.includes('@'))) throw new HttpError(400, ['each value in emails must be an email']);
  const existing = new Map(ctx.store.all(members(o.id)).map((u) => [u.email as string, u]));
  const invited = (emails as string[]).map((email) => existing.get(email) ?? ctx.store.insert(members(o.id), { email, role: ctx.body.role }, { scoped: false }));
  return { status: 201, body: invited, changed: true };
};

/** `PATCH /org/{id}/role`: changes one member's role. */
export const updateRole: Handler = (ctx) => {
  const o = org(ctx);
  check(ctx.body, { userId: { type: 'string', required: true }, role: { type: 'string', required: true, oneOf: ROLES } });
  const user = ctx.store.get(members(o.id), ctx.body.userId as string);
  if (!user) throw notFound('User');
  user.role = ctx.body.role;
  return { status: 200, body: ctx.store.touch(user), changed: true };
};

/** `DELETE /org/{id}/leave`: you leave the org. */
export const leave: Handler = (ctx) => {
  const o = org(ctx);
  const you = ctx.store.remove(members(o.id), ctx.store.userId);
  if (!you) throw new HttpError(404, 'You are not a member of this organization');
  return { status: 200, body: you, changed: true };
};

/** `DELETE /org/{id}/member/{memberId}/leave`: removes a member. */
export const removeMember: Handler = (ctx) => {
  const o = org(ctx);
  const gone = ctx.store.remove(members(o.id), ctx.params.memberId as string);
  if (!gone) throw notFound('User');
  return { status: 200, body: gone, changed: true };
};

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** `GET /org/{id}/auth`: a short-lived token (a JWT signed with a local secret). */
export const orgAuth: Handler = (ctx) => {
  const o = org(ctx);
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + 3600;
  const head = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ orgId: o.id, sub: ctx.store.userId, iat, exp, iss: 'voice-emulator' })}`;
  const sig = createHmac('sha256', `voice-emulator:${ctx.store.orgId}`).update(head).digest('base64url');
  return { status: 200, body: { token: `${head}.${sig}`, orgId: o.id, expiresAt: new Date(exp * 1000).toISOString() } };
};
