// A call's artifacts in the org's own storage: when the org has a storage credential (s3, gcp,
// cloudflare, supabase, azure), the end-of-call report, the recordings and the log go there after
// the call. A bucket with an S3-compatible URL (R2, Supabase, GCP interoperability, or a loopback
// stand-in) gets signed PUTs; a bucket the emulator cannot reach without the cloud (plain AWS S3,
// Azure) is written under the local folder `voice dev --storage-dir` names, or reported as not stored.
import { createHash, createHmac } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { postPool } from '../../http/undici.js';
import type { Json } from '../../messages/index.js';
import { callRecordingWav } from './recording.js';
import type { CallSession } from './session.js';
import { isObject } from '../../json.js';

/** One artifact's outcome, as `call.artifact.upload` reports it. */
export interface ArtifactUpload {
  type: 'end-of-call-report' | 'recording-mono' | 'recording-stereo' | 'log';
  success: boolean;
}

const STORAGE = new Set(['s3', 'gcp', 'cloudflare', 'supabase', 'azure']);

/** The org's storage credential tried first (lowest `fallbackIndex`), if it has one. */
export function storageCredential(credentials: readonly Json[]): Json | undefined {
  const stores = credentials.filter((c) => STORAGE.has(String(c.provider)) && (c.provider !== 'azure' || c.service === 'blob_storage'));
  return [...stores].sort((a, b) => (Number(a.fallbackIndex) || Infinity) - (Number(b.fallbackIndex) || Infinity))[0];
}

/** Where and how a credential's bucket is written. */
interface Bucket {
  name: string;
  prefix: string;
  /** The S3-compatible endpoint with its keys, when the bucket has one. */
  s3?: { url: string; region: string; accessKeyId: string; secret: string };
}

function bucketOf(credential: Json): Bucket {
  const plan = isObject(credential.bucketPlan) ? credential.bucketPlan : {};
  const name = String(credential.s3BucketName ?? plan.name ?? 'bucket');
  const prefix = String(credential.s3PathPrefix ?? plan.path ?? '').replace(/^\/+/, '');
  const accessKeyId = plan.accessKeyId ?? plan.hmacAccessKey;
  const secret = plan.secretAccessKey ?? plan.hmacSecret;
  if (typeof plan.url === 'string' && plan.url && typeof accessKeyId === 'string' && typeof secret === 'string') {
    return { name, prefix, s3: { url: plan.url.replace(/\/+$/, ''), region: String(plan.region ?? credential.region ?? 'auto'), accessKeyId, secret } };
  }
  return { name, prefix };
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** Headers of an AWS Signature Version 4 `PUT` of `body` to `url` (path-style, as S3-compatible stores take it). */
export function signPut(url: URL, body: Buffer, keys: { region: string; accessKeyId: string; secret: string }, now = new Date()): Record<string, string> {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = stamp.slice(0, 8);
  const hash = sha256(body);
  const headers: Record<string, string> = { host: url.host, 'x-amz-content-sha256': hash, 'x-amz-date': stamp };
  const names = Object.keys(headers).sort();
  const canonical = ['PUT', url.pathname, '', ...names.map((n) => `${n}:${headers[n]}`), '', names.join(';'), hash].join('\n');
  const scope = `${day}/${keys.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', stamp, scope, sha256(canonical)].join('\n');
  const key = ['s3', 'aws4_request'].reduce((k, part) => hmac(k, part), hmac(hmac(`AWS4${keys.secret}`, day), keys.region));
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return { ...headers, authorization: `AWS4-HMAC-SHA256 Credential=${keys.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}` };
}

async function put(bucket: Bucket, key: string, body: Buffer, folder: string | undefined): Promise<string | undefined> {
  if (bucket.s3) {
    const url = new URL(`${bucket.s3.url}/${encodeURIComponent(bucket.name)}/${key.split('/').map(encodeURIComponent).join('/')}`);
    const { request, dispatcher } = await postPool();
    const res = await request(url, { method: 'PUT', headers: signPut(url, body, bucket.s3), body, dispatcher, signal: AbortSignal.timeout(20_000) }).catch((e: Error) => e);
    if (res instanceof Error) return `${url.origin} could not be reached (${(res as { code?: string }).code ?? res.message})`;
    await res.body.dump();
    return res.statusCode < 300 ? undefined : `${url.origin} answered HTTP ${res.statusCode}`;
  }
  if (!folder) return 'the emulator does not write to the cloud: start voice dev with --storage-dir DIR to keep this bucket in a local folder';
  const root = resolve(folder, bucket.name);
  const path = resolve(root, key);
  if (!path.startsWith(root + sep)) return `the key ${key} leaves the bucket's folder`;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, body);
  return undefined;
}

/** Writes the call's artifacts to the org's storage; resolves with one outcome per artifact (none without a storage credential). */
export async function uploadArtifacts(s: CallSession): Promise<ArtifactUpload[]> {
  const credential = storageCredential(s.deps.store.all('credential'));
  if (!credential) return [];
  const bucket = bucketOf(credential);
  const plan = isObject(s.assistant?.artifactPlan) ? s.assistant.artifactPlan : {};
  const base = (extra: unknown): string =>
    [bucket.prefix, typeof extra === 'string' ? extra : '', s.call.id]
      .map((p) => p.replace(/^\/+|\/+$/g, ''))
      .filter(Boolean)
      .join('/');
  const files: { type: ArtifactUpload['type']; key: string; body: () => Buffer }[] = [
    {
      type: 'end-of-call-report',
      key: `${base('')}/end-of-call-report.json`,
      body: () => Buffer.from(JSON.stringify({ message: s.message('end-of-call-report', { endedReason: String(s.call.endedReason) }) })),
    },
  ];
  const answered = Boolean(s.call.startedAt);
  if (answered && plan.recordingEnabled !== false && plan.recordingUseCustomStorageEnabled !== false) {
    files.push({ type: 'recording-mono', key: `${base(plan.recordingPath)}/mono.wav`, body: () => callRecordingWav('mono', s.call) });
    files.push({ type: 'recording-stereo', key: `${base(plan.recordingPath)}/stereo.wav`, body: () => callRecordingWav('stereo', s.call) });
  }
  if (plan.loggingEnabled !== false && plan.loggingUseCustomStorageEnabled !== false) {
    const lines = s.deps.store.all('log').filter((l) => l.callId === s.call.id);
    files.push({ type: 'log', key: `${base(plan.loggingPath)}/call-logs.ndjson`, body: () => Buffer.from(lines.map((l) => `${JSON.stringify(l)}\n`).join('')) });
  }
  const out: ArtifactUpload[] = [];
  for (const file of files) {
    const problem = await put(bucket, file.key, file.body(), s.deps.storageDir).catch((e: Error) => e.message);
    s.log(
      problem
        ? `${file.type} was not stored in ${String(credential.provider)} bucket ${bucket.name}: ${problem}`
        : `${file.type} stored in ${String(credential.provider)} bucket ${bucket.name} as ${file.key}`,
      problem ? 'WARN' : 'INFO',
    );
    out.push({ type: file.type, success: !problem });
  }
  return out;
}
