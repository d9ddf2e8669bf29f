// Small helpers shared by the action handlers.
import { randomBytes } from 'node:crypto';
import { labelOf } from '../resources/collections.js';
import type { Place } from '../resources/crud.js';

/** A top-level collection as a place objects are created in. */
export function topLevel(collection: string): Place {
  return { collection, label: labelOf(collection) };
}

/** A random identifier of letters and digits, like a room name or token id. */
export function randomName(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let out = '';
  for (const byte of randomBytes(length)) out += alphabet[byte % alphabet.length];
  return out;
}

/** Fields of an object without the server-owned ones. */
export function editable(rec: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, orgId: _org, createdAt: _c, updatedAt: _u, ...rest } = rec;
  return rest;
}
