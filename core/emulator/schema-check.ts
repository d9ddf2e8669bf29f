// Request bodies checked against the platform's published request schemas (the derived set in
// core/schemas), answered like the platform: a 400 whose `message` names every bad field.
import { loadSchemas, messagesOf } from '../schemas/validate.js';
import type { Schemas } from '../schemas/validate.js';
import { badRequest } from './errors.js';

let schemas: Schemas | undefined;

/** Resolves when the body fits the operation's request schema (or none is published); else rejects with a 400. */
export async function checkBody(method: string, path: string, body: unknown): Promise<void> {
  // Loaded on the first body, never at start: starting the emulator stays as fast as before.
  schemas ??= await loadSchemas();
  const errors = schemas.request(method, path, body);
  if (errors.length) throw badRequest(messagesOf(errors));
}
