// `--dry-run`: the request as a curl command (or JSON with --json), the key masked.
import type { BuiltRequest } from 'voice-agent-core/client';
import { maskKey } from '../redact.js';

/** The printable form of a request: method, URL, headers (masked), body. */
export interface ShownRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The request with Authorization masked and the body as data (multipart as its fields). */
export function showRequest(req: BuiltRequest, apiKey: string | undefined): ShownRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    headers[k] = k.toLowerCase() === 'authorization' ? `Bearer ${maskKey(apiKey ?? v.replace(/^Bearer /, ''))}` : v;
  }
  let body: unknown = null;
  if (typeof req.body === 'string') body = JSON.parse(req.body);
  else if (req.body && typeof req.body === 'object') {
    const { file, ...fields } = req.body as Record<string, unknown>;
    body = { file: typeof file === 'string' ? file : '(data)', ...fields };
  }
  return { method: req.method, url: req.url, headers, body };
}

/** The request as a curl command line. */
export function curlCommand(shown: ShownRequest, bodyKind: string): string {
  const lines = [`curl -X ${shown.method} ${quote(shown.url)}`];
  for (const [k, v] of Object.entries(shown.headers)) {
    if (bodyKind === 'multipart' && k === 'content-type') continue;
    lines.push(`-H ${quote(`${k}: ${v}`)}`);
  }
  if (bodyKind === 'multipart' && shown.body && typeof shown.body === 'object') {
    for (const [k, v] of Object.entries(shown.body as Record<string, unknown>)) {
      lines.push(`-F ${quote(k === 'file' ? `file=@${String(v)}` : `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)}`);
    }
  } else if (shown.body !== null && shown.body !== undefined) {
    lines.push(`--data-raw ${quote(JSON.stringify(shown.body))}`);
  }
  return `${lines.join(' \\\n  ')}\n`;
}
