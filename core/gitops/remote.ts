// The platform's side: every resource of a kind, and the fields of a platform object that belong
// in a file (server-set fields and nulls dropped).
import type { Client, ListPromise } from '../client/index.js';
import type { Kind } from './kinds.js';
import { opOf } from './kinds.js';

const SERVER_FIELDS = ['id', 'orgId', 'createdAt', 'updatedAt'];

/** A platform object. */
export type Remote = Record<string, unknown> & { id: string };

/** Every object of a kind on the account, by UUID (all pages). */
export async function listAll(client: Client, kind: Kind): Promise<Map<string, Remote>> {
  const out = new Map<string, Remote>();
  for await (const item of client.invoke(opOf(kind, 'list'), []) as ListPromise<unknown, unknown>) {
    const rec = item as Remote;
    if (rec && typeof rec.id === 'string') out.set(rec.id, rec);
  }
  return out;
}

/** Objects of several kinds, fetched in parallel. */
export async function listKinds(client: Client, kinds: readonly Kind[]): Promise<Map<string, Map<string, Remote>>> {
  const lists = await Promise.all(kinds.map((k) => listAll(client, k)));
  return new Map(kinds.map((k, i) => [k.name, lists[i] as Map<string, Remote>]));
}

function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = dropNulls(v);
    return out;
  }
  return value;
}

/** The configuration part of a platform object: what a file would say. */
export function configOf(kind: Kind, remote: Record<string, unknown>): Record<string, unknown> {
  const out = dropNulls(remote) as Record<string, unknown>;
  const byProvider = typeof out.provider === 'string' ? kind.serverFieldsByProvider?.[out.provider] : undefined;
  for (const f of [...SERVER_FIELDS, ...(kind.serverFields ?? []), ...(byProvider ?? [])]) delete out[f];
  return out;
}
