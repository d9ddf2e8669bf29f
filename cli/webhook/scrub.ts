// Masks what looks like a secret before a message or an answer is printed: the platform sends
// `server.headers`, credentials and tokens inside the messages it posts, and none of that may
// reach a terminal or a log file.

const SECRET_KEY = /secret|password|passphrase|(^|[-_a-z])token$|api[-_]?key|authorization|signature|private[-_]?key/i;

/** A copy of a JSON value with secret-looking fields, and every value inside `headers`, masked. */
export function scrub(value: unknown, inHeaders = false): unknown {
  if (Array.isArray(value)) return value.map((v) => scrub(v, inHeaders));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === 'string' && (inHeaders || SECRET_KEY.test(k))) out[k] = '****';
    else out[k] = scrub(v, inHeaders || k.toLowerCase() === 'headers');
  }
  return out;
}
