// Byte sizes as a browser would download them: gzip at the level a static host uses.
import { gzipSync } from 'node:zlib';

/** Bytes in a KiB. */
export const KIB = 1024;

/** Gzip size (level 9) of a text or buffer, in bytes. */
export function gzipBytes(content: string | Uint8Array): number {
  return gzipSync(content, { level: 9 }).length;
}
