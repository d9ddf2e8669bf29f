// Keeps secrets out of everything the CLI prints: every write to stdout or stderr goes through
// `redact`, so a key that slips into an error body or a log line is masked anyway.
import { isSecretName, MASK } from '#core/emulator/store/mask';
import { usageError } from './errors.js';

const secrets = new Set<string>();

/** Shows a key as `****` plus its last four characters (all stars when short). */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  return key.length < 12 ? '****' : `****${key.slice(-4)}`;
}

/** Registers a value that must never be printed in full. */
export function addSecret(value: string | undefined): void {
  // Very short values would mask ordinary words; they are not real keys.
  if (value && value.length >= 6) secrets.add(value);
}

/**
 * Registers the values of a request body's secret-named fields (`apiKey`, `token`, `secretKey`...),
 * at any depth; refuses a body carrying the mask the CLI prints instead of a secret (`••••••`, from
 * a saved `--json` output), which would replace the secret with it.
 */
export function addSecretsOf(value: unknown, at = ''): void {
  if (Array.isArray(value)) return value.forEach((v, i) => addSecretsOf(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const path = at ? `${at}.${k}` : k;
    if (typeof v === 'string' && isSecretName(k)) {
      if (v === MASK)
        throw usageError(`${path} is ${MASK}, the mask the CLI prints instead of a secret: sending it would replace the secret.`, `Put the secret itself there, or leave ${path} out to keep it.`);
      addSecret(v);
    } else addSecretsOf(v, path);
  }
}

/** Replaces every registered secret in a text by its masked form. */
export function redact(text: string): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(maskKey(s));
  return out;
}

/** Writes data to stdout, secrets masked. */
export function out(text: string): void {
  process.stdout.write(redact(text));
}

/** Writes a message to stderr, secrets masked. */
export function err(text: string): void {
  process.stderr.write(redact(text));
}
