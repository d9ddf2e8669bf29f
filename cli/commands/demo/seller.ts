// The seller's logo as the page gets it: a web address as given, or a local image file read into
// a data: URL, so `voice demo` and a static build (`voice demo build`) carry it the same way.
import { readFileSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { usageError } from '../../errors.js';

/** Image types a logo file may be, by extension. */
const TYPES: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.gif': 'image/gif', '.ico': 'image/x-icon' };

/** A logo file is written into the page itself: beyond this it would slow every visitor's first paint. */
export const MAX_LOGO_BYTES = 100 * 1024;

/** The logo for the page: '' stays '' (the default mark), a URL stays, a file becomes a data: URL. */
export function logoSource(value: string, cwd: string = process.cwd()): string {
  if (!value || /^(https?:\/\/|data:image\/)/i.test(value)) return value;
  const file = resolve(cwd, value);
  const type = TYPES[extname(file).toLowerCase()];
  const hint = 'Pass --seller-logo (or VOICE_SELLER_LOGO) an .svg, .png, .jpg, .webp or .ico file, or an https:// address.';
  if (!type) throw usageError(`The logo "${value}" is neither an image file (.svg, .png, .jpg, .webp, .gif, .ico) nor an http(s) address.`, hint);
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw usageError(`Cannot read the logo file ${file}.`, hint);
  }
  if (size > MAX_LOGO_BYTES)
    throw usageError(
      `The logo file ${file} is ${Math.ceil(size / 1024)} KiB; at most ${MAX_LOGO_BYTES / 1024} KiB goes into the page.`,
      'An SVG, or a PNG of about 128 px, is plenty for the header and the tab icon.',
    );
  return `data:${type};base64,${readFileSync(file).toString('base64')}`;
}
