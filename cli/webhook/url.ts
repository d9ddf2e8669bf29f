// Where `--forward-to` points: a full URL, `localhost:3000/webhook` or just a port, always kept
// whole (path and query string), since a lost query is a classic forwarding bug.
import { usageError } from '../errors.js';

/** Turns a `--forward-to` value into a full http(s) URL, or a usage error saying what is wrong. */
export function targetUrl(raw: string, flag = '--forward-to'): string {
  const value = raw.trim();
  if (value === '') throw usageError(`${flag} needs a URL, e.g. ${flag} http://127.0.0.1:3000/webhook`);
  let text = value;
  if (/^\d{1,5}$/.test(text)) text = `http://127.0.0.1:${text}/`;
  else if (text.startsWith(':')) text = `http://127.0.0.1${text}`;
  else if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${flag}: "${raw}" is not a URL`, `Example: ${flag} http://127.0.0.1:3000/webhook`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`${flag}: use an http or https URL, not ${url.protocol}`);
  if (url.username || url.password) throw usageError(`${flag}: put credentials in a header (--header), not in the URL`);
  return url.href;
}
