// `voice trigger --replay FILE`: sends recorded messages again, in order, prints each answer, and
// with --diff compares it field by field with the recorded one; any difference exits 1.
import { CliError, ExitCode } from '../errors.js';
import type { DevIo } from '../commands/dev/index.js';
import { diffAnswers, readRecord } from './replay.js';
import { postServerMessage } from '#core/messages/post';

/** How to replay. */
export interface ReplayOptions {
  file: string;
  url: string;
  /** The headers for one raw body (fixed ones, and a signature when a credential is named). */
  headers: (body: string, url: string) => Promise<Record<string, string>>;
  timeoutMs: number;
  diff: boolean;
  /** Fields left out of the comparison: names anywhere (`toolCallId`) or dotted paths. */
  ignore: readonly string[];
  json: boolean;
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));

/** Replays a record file; throws CliError (exit 1) when an answer failed or differed. */
export async function replay(opts: ReplayOptions, io: DevIo): Promise<void> {
  const lines = readRecord(opts.file);
  let differing = 0;
  let failed = 0;
  for (const [i, line] of lines.entries()) {
    const body = JSON.stringify({ message: line.message });
    const got = await postServerMessage(opts.url, body, { headers: await opts.headers(body, opts.url), timeoutMs: opts.timeoutMs });
    const answer = got.answer ?? (got.text || undefined);
    const diffs = opts.diff ? diffAnswers(line.answer, answer, opts.ignore) : [];
    if (got.status === undefined) failed++;
    if (diffs.length || (opts.diff && got.status !== line.status)) differing++;
    if (opts.json) {
      io.out(
        `${JSON.stringify({ index: i + 1, type: line.type, status: got.status ?? null, ms: Math.round(got.ms), answer: answer ?? null, ...(opts.diff ? { recordedStatus: line.status, differences: diffs } : {}) })}\n`,
      );
      continue;
    }
    const status = got.status !== undefined ? String(got.status) : `no answer (${got.reason ?? got.failure ?? 'failed'})`;
    io.out(`${i + 1}/${lines.length} ${line.type} -> ${status} ${Math.round(got.ms)} ms ${answer === undefined ? '' : JSON.stringify(answer)}\n`);
    if (opts.diff && got.status !== line.status) io.out(`  status differs: recorded ${line.status}, now ${got.status ?? 'none'}\n`);
    for (const d of diffs) io.out(`  differs at ${d.path}: recorded ${show(d.recorded)}, now ${show(d.now)}\n`);
  }
  if (opts.diff) io.err(differing ? `${differing} of ${lines.length} answers differ from the recording.\n` : `All ${lines.length} answers match the recording.\n`);
  if (failed) throw new CliError(`${failed} of ${lines.length} messages got no answer from ${opts.url}.`, ExitCode.Failure);
  if (differing)
    throw new CliError(
      `${differing} answer${differing === 1 ? '' : 's'} differ from the recording.`,
      ExitCode.Failure,
      'Ignore fields that change on every run with --ignore NAME (e.g. --ignore id,time).',
    );
}
