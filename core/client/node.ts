// Node entry of the REST client: everything the browser-safe entry exports, with a createClient
// that defaults to the pooled, proxy-aware Node transport and accepts file paths for uploads.
import { openAsBlob, promises as fsp } from 'node:fs';
import { createClient as createBaseClient } from './client.js';
import { nodeTransport } from './node-transport.js';
import type { Client, ClientOptions } from './types.js';
import { VoiceError } from '../errors.js';

export * from './index.js';
export { nodeTransport, proxyConfigured, UPGRADE_AFTER } from './node-transport.js';
export type { NodeTransportOptions } from './node-transport.js';

/** Reads an upload's file path as a file-backed Blob (streamed from disk when sent). */
export async function readUploadPath(path: string): Promise<Blob> {
  try {
    // stat first: openAsBlob's own errors do not say what is wrong.
    const info = await fsp.stat(path);
    if (!info.isDirectory()) return await openAsBlob(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new VoiceError(`Cannot read upload file ${path}: ${why}`, { cause: error });
  }
  throw new VoiceError(`Cannot read upload file ${path}: it is a directory`);
}

/** Creates a client for the platform API, using the Node transport unless `fetch` or `transport` is given. */
export function createClient(options: ClientOptions = {}): Client {
  return createBaseClient({ ...options, transport: options.transport ?? nodeTransport(), readPath: options.readPath ?? readUploadPath });
}
