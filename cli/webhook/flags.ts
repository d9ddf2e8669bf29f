// Flag parsers shared by the webhook commands (listen, trigger, call watch); `voice dev` and
// `voice demo` take their --port parser from here too.
import { InvalidArgumentError } from 'commander';

/** A TCP port (0 = any free port). */
export function portFlag(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return n;
}

/** A positive number of seconds, e.g. 20 or 0.5. */
export function secondsFlag(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 3600) throw new InvalidArgumentError('expected a number of seconds above 0 (at most 3600).');
  return n;
}

/** A comma-separated list, repeatable: `--events a,b --events c`. */
export function listFlag(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

/** `Name: value` header, repeatable. */
export function headerFlag(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf(':');
  if (at <= 0) throw new InvalidArgumentError('expected "Name: value", e.g. --header "x-vapi-secret: s3cret".');
  return { ...previous, [value.slice(0, at).trim().toLowerCase()]: value.slice(at + 1).trim() };
}
