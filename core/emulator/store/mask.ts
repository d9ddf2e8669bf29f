// Secrets never shown: the inspector and the request record mask the values of fields and
// headers whose names say they hold a key, a token, a password or a signature. Pure and
// browser-safe (the inspector page imports it too).

/** What a masked value reads as. */
export const MASK = '••••••';

const SECRET_NAME = /secret|token|password|passwd|api[-_]?key|authori[sz]ation|credential|private[-_]?key|^key$|signature|cookie/i;

/** True when a field or header of this name holds a secret (ids such as `credentialId` do not). */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !/ids?$/i.test(name);
}

/** A copy of `value` with the string values of secret-named fields masked, at any depth. */
export function maskSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => maskSecrets(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = typeof v === 'string' && v && isSecretName(k) ? MASK : maskSecrets(v);
  return out as T;
}

/** A body as text: parsed JSON with its secrets masked, or the text itself when it is not JSON. */
export function maskBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return maskSecrets(JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}
