// A small multipart/form-data reader for uploads: fields as text, files as name/type/size.
import { HttpError } from '../errors.js';

/** One uploaded file part. */
export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  size: number;
}

/** The parsed form: text fields (repeated names become arrays) and file parts. */
export interface Form {
  fields: Record<string, string | string[]>;
  files: FilePart[];
}

function boundaryOf(contentType: string | undefined): string {
  const m = contentType && /^multipart\/form-data\s*;.*?boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  const boundary = m ? (m[1] ?? m[2]) : undefined;
  if (!boundary) throw new HttpError(400, 'Expected a multipart/form-data body with a boundary (upload a file with -F file=@path)');
  return boundary;
}

const PARAMS = {
  name: [/;\s*name="((?:[^"\\]|\\.)*)"/i, /;\s*name=([^;\s]+)/i],
  filename: [/;\s*filename="((?:[^"\\]|\\.)*)"/i, /;\s*filename=([^;\s]+)/i],
} as const;

function param(header: string, name: keyof typeof PARAMS): string | undefined {
  const [quoted, bare] = PARAMS[name];
  return (quoted.exec(header) ?? bare.exec(header))?.[1];
}

/** Parses a multipart body; a malformed one is a 400. */
export function parseMultipart(body: Buffer, contentType: string | undefined): Form {
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const form: Form = { fields: {}, files: [] };
  let at = body.indexOf(delimiter);
  if (at < 0) throw new HttpError(400, 'Malformed multipart body: boundary not found');
  for (;;) {
    at += delimiter.length;
    if (body[at] === 45 && body[at + 1] === 45) break; // `--` closes the form
    const headEnd = body.indexOf('\r\n\r\n', at);
    const next = body.indexOf(delimiter, at);
    if (headEnd < 0 || next < 0 || headEnd > next) throw new HttpError(400, 'Malformed multipart body: unterminated part');
    const head = body.subarray(at, headEnd).toString('utf8');
    const dataEnd = next - 2; // the CRLF before the delimiter belongs to the boundary
    const disposition = /content-disposition:([^\r\n]*)/i.exec(head)?.[1] ?? '';
    const name = param(disposition, 'name') ?? '';
    const filename = param(disposition, 'filename');
    if (filename !== undefined) {
      const type = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1]?.trim() || 'application/octet-stream';
      form.files.push({ field: name, filename, contentType: type, size: Math.max(0, dataEnd - (headEnd + 4)) });
    } else if (name) {
      const value = body.subarray(headEnd + 4, Math.max(headEnd + 4, dataEnd)).toString('utf8');
      const prev = form.fields[name];
      form.fields[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    at = next;
  }
  return form;
}
