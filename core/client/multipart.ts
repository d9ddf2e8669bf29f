// Turns an Upload ({ file, filename?, contentType?, ...fields }) into form data. Browser-safe:
// file paths are resolved by a reader the Node entry supplies.
import type { Upload, UploadSource } from '../catalogue/index.js';
import { VoiceError } from '../errors.js';

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  html: 'text/html',
  htm: 'text/html',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  doc: 'application/msword',
  rtf: 'application/rtf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  flac: 'audio/flac',
  webm: 'audio/webm',
  aac: 'audio/aac',
  mp4: 'video/mp4',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  zip: 'application/zip',
};

/** The content type for a file name's extension, or undefined when unknown. */
export function guessContentType(name: string | undefined): string | undefined {
  const ext = name?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  return ext ? TYPES[ext] : undefined;
}

/** The last segment of a path, for either separator. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? 'file';
}

function isStream(v: unknown): v is ReadableStream<Uint8Array> {
  return typeof (v as ReadableStream | null)?.getReader === 'function';
}

function isAsyncIterable(v: unknown): v is AsyncIterable<Uint8Array> {
  return typeof (v as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}

/** True for values sent as file parts rather than text fields. */
export function isBinary(v: unknown): boolean {
  return v instanceof Uint8Array || (typeof Blob !== 'undefined' && v instanceof Blob) || isStream(v) || isAsyncIterable(v);
}

async function collect(source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): Promise<Blob> {
  const parts: Uint8Array[] = [];
  if (isStream(source) && !isAsyncIterable(source)) {
    const reader = source.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  } else {
    for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
      parts.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
    }
  }
  return new Blob(parts as BlobPart[]);
}

/** Reads a file path into a Blob; only the Node entry can. */
export type PathReader = (path: string) => Promise<Blob>;

async function toBlob(source: UploadSource, readPath: PathReader | undefined): Promise<{ blob: Blob; name?: string }> {
  if (typeof source === 'string') {
    if (!readPath) {
      throw new VoiceError('Uploading from a file path needs the Node entry (core/client/node.js); pass bytes, a Blob or a stream');
    }
    return { blob: await readPath(source), name: baseName(source) };
  }
  if (source instanceof Uint8Array) return { blob: new Blob([source as BlobPart]) };
  if (source instanceof Blob) {
    const name = (source as Blob & { name?: unknown }).name;
    return typeof name === 'string' && name ? { blob: source, name } : { blob: source };
  }
  if (isStream(source) || isAsyncIterable(source)) return { blob: await collect(source) };
  throw new VoiceError('Unsupported upload: pass a file path, bytes, a Blob or a stream');
}

/**
 * Builds the form: the upload's `file` (or each of several) under `fileField`, other binary fields
 * as file parts, and the rest as text fields (objects as JSON).
 */
export async function toFormData(upload: Upload, readPath?: PathReader, fileField = 'file'): Promise<FormData> {
  const { file, filename, contentType, ...fields } = upload;
  const form = new FormData();
  const addFile = async (field: string, source: UploadSource, name?: string, type?: string): Promise<void> => {
    const got = await toBlob(source, readPath);
    const finalName = name ?? got.name ?? 'file';
    const finalType = type ?? guessContentType(finalName) ?? (got.blob.type || 'application/octet-stream');
    const blob = got.blob.type === finalType ? got.blob : new Blob([got.blob], { type: finalType });
    form.append(field, blob, finalName);
  };
  const sources = Array.isArray(file) ? (file as UploadSource[]) : [file];
  for (const source of sources) await addFile(fileField, source, sources.length === 1 ? filename : undefined, contentType);
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    const list = Array.isArray(value) ? value : [value];
    for (const v of list) {
      if (isBinary(v)) await addFile(key, v as UploadSource);
      else form.append(key, typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
  }
  return form;
}
