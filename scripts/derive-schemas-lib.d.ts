// Types of scripts/derive-schemas-lib.js (plain JS so `node scripts/derive-schemas.js` runs as is).

/** The derived schema set: what core/schemas/*.json hold. */
export interface Derived {
  components: Record<string, Record<string, unknown>>;
  operations: Record<string, { request?: Record<string, unknown>; response?: Record<string, unknown>; status?: number; multipart?: boolean }>;
  messages: { messages: Record<string, string>; responses: Record<string, string> };
}

/** The compact schema set of an OpenAPI document. */
export function derive(doc: unknown): Derived;

/** The JSON text of a derived file: one entry per line, keys sorted. */
export function serialise(obj: Record<string, unknown>): string;
