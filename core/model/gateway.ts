// The emulator's door to models: builds the platform's request, streams the answer (or replays it
// from a cassette), times the first token, and names failures with the platform's endedReason.
import type { Json } from '../messages/index.js';
import { CassettePlayer, CassetteRecorder } from './cassette.js';
import { describeFailure, endedReasonFor, type FailureCause } from './failures.js';
import { OAuth2Tokens } from './oauth.js';
import { undiciPost, type ModelPost } from './post.js';
import { buildRequest, modelOf, type ModelRequest } from './request.js';
import { MalformedStream, readCompletion, readStream, type Answer } from './stream.js';
import type { ModelConfig, ModelGateway, StepInput, StepResult } from './types.js';
import { VoiceError } from '../errors.js';

/** What the gateway needs from its host. */
export interface GatewayDeps {
  /** A stored credential by id (the custom-llm credential an assistant names). */
  credential(id: string): Json | undefined;
  /** Every stored credential of the org (a custom-llm assistant naming none uses the org's); none when absent. */
  credentials?(): readonly Json[];
  /** Milliseconds, for timing; performance.now by default. */
  now?: () => number;
}

function causeOf(err: unknown): string {
  const e = err as { cause?: { code?: string; message?: string }; message?: string };
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

class Timeout extends VoiceError {}

async function send(post: ModelPost, req: ModelRequest, input: StepInput, now: () => number): Promise<{ answer: Answer; firstTokenMs: number; totalMs: number } | FailureCause> {
  const started = now();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(input.signal?.reason);
  if (input.signal?.aborted) return { kind: 'aborted' };
  input.signal?.addEventListener('abort', onAbort, { once: true });
  // timeoutSeconds covers the wait for the first byte; once the model streams, it may take its time.
  const timer = setTimeout(() => controller.abort(new Timeout()), req.timeoutSeconds * 1000);
  const firstByte = (): void => clearTimeout(timer);
  let firstToken = -1;
  try {
    const res = await post(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body), signal: controller.signal });
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      firstByte();
      return { kind: 'http', status: res.status, body: text };
    }
    const type = res.headers.get('content-type') ?? '';
    let answer: Answer;
    if (!type.includes('text/event-stream') && type.includes('json')) {
      answer = readCompletion(await res.text());
      firstByte();
      firstToken = now();
      answer.deltas.forEach((d) => input.onDelta?.(d));
    } else {
      if (!res.body) throw new MalformedStream('the answer has no body');
      answer = await readStream(res.body, {
        onFirstByte: firstByte,
        onFirstToken: () => (firstToken = now()),
        onDelta: (t) => input.onDelta?.(t),
      });
    }
    const end = now();
    return { answer, firstTokenMs: (firstToken < 0 ? end : firstToken) - started, totalMs: end - started };
  } catch (err) {
    if (err instanceof MalformedStream) return { kind: 'malformed', detail: err.message };
    if (controller.signal.aborted) {
      return controller.signal.reason instanceof Timeout ? { kind: 'timeout', seconds: req.timeoutSeconds } : { kind: 'aborted' };
    }
    return { kind: 'unreachable', detail: causeOf(err) };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', onAbort);
  }
}

/** Creates the emulator's door to models from the developer's configuration. */
export function createModelGateway(config: ModelConfig, deps: GatewayDeps): ModelGateway {
  if (config.record && config.replay) throw new VoiceError('a model cassette is either recorded or replayed, not both (--llm-record or --llm-replay)');
  const now = deps.now ?? (() => performance.now());
  const fetcher = config.fetch ?? globalThis.fetch;
  // An injected fetch (tests) carries the model requests too; by default they go through undici.
  const post: ModelPost = config.fetch ? (url, init) => fetcher(url, init) as unknown as ReturnType<ModelPost> : undiciPost;
  const player = config.replay ? new CassettePlayer(config.replay) : undefined;
  const recorder = config.record ? new CassetteRecorder(config.record) : undefined;
  const tokens = new OAuth2Tokens(fetcher);
  const credentials = { get: (id: string) => deps.credential(id), all: () => deps.credentials?.() ?? [] };

  const fail = (provider: string, url: string, cause: FailureCause, request?: { url: string; body: Json }): StepResult => ({
    ok: false,
    endedReason: endedReasonFor(provider, cause),
    message: describeFailure(url, cause),
    ...(cause.kind === 'http' ? { status: cause.status } : {}),
    ...(request ? { request } : {}),
  });

  async function stepOnce(input: StepInput): Promise<StepResult> {
    const built = buildRequest(config, input, credentials, { replay: Boolean(player) });
    if ('error' in built) return fail(built.provider, '', { kind: 'config', detail: built.error });
    const request = { url: built.url, body: built.body };
    if (player) {
      const found = await player.find(built.body, input.label);
      if ('miss' in found) return fail(built.provider, built.url, { kind: 'cassette-miss', detail: found.miss }, request);
      for (const d of found.answer.deltas) input.onDelta?.(d);
      const text = found.answer.deltas.join('');
      const toolCalls = found.answer.toolCalls.map((c) => ({ ...c }));
      return { ok: true, text, toolCalls, firstTokenMs: found.firstTokenMs, totalMs: found.totalMs, replayed: true, request };
    }
    if (built.oauth2) {
      const got = await tokens.token(built.oauth2, input.signal);
      if ('error' in got) return fail(built.provider, built.url, { kind: 'auth', detail: got.error }, request);
      built.headers.authorization = `Bearer ${got.token}`;
    }
    const got = await (input.slot ? input.slot(() => send(post, built, input, now)) : send(post, built, input, now));
    if ('kind' in got) {
      const failed = fail(built.provider, built.url, got, request);
      // An OpenAI-compatible server answers 404 for a model it does not have: say which name was sent.
      if (!failed.ok && got.kind === 'http' && got.status === 404) {
        failed.message += ` (the request named the model ${JSON.stringify(built.body.model)}${built.provider === 'custom-llm' ? '' : '; choose another with --llm-model'})`;
      }
      return failed;
    }
    if (recorder) {
      const exchange = { answer: { deltas: got.answer.deltas, toolCalls: got.answer.toolCalls }, firstTokenMs: got.firstTokenMs, totalMs: got.totalMs };
      const written = await recorder.add(built.body, { ...(input.label !== undefined ? { label: input.label } : {}), ...exchange }).then(
        () => undefined,
        (err: NodeJS.ErrnoException) => `the cassette ${recorder.file} cannot be written (${err.code ?? err.message})`,
      );
      // A recording asked for and lost would fail the replay later, far from its cause.
      if (written) return fail(built.provider, built.url, { kind: 'config', detail: written }, request);
    }
    return { ok: true, text: got.answer.text, toolCalls: got.answer.toolCalls, firstTokenMs: got.firstTokenMs, totalMs: got.totalMs, replayed: false, request };
  }

  return {
    configured(assistant) {
      if (player) return true;
      const model = modelOf(assistant);
      if (model.provider === 'custom-llm') return typeof model.url === 'string' && model.url !== '';
      return Boolean(config.url);
    },

    step(input) {
      // A step answers or fails the platform's way; it never throws into the call awaiting it.
      return stepOnce(input).catch((err: unknown) =>
        fail(String(modelOf(input.assistant).provider ?? ''), '', { kind: 'config', detail: `the model step failed: ${(err as Error)?.message ?? String(err)}` }),
      );
    },

    describe() {
      const where = config.url ? `${config.url}${typeof config.model === 'string' ? ` (model ${config.model})` : ''}` : 'custom-llm assistants only';
      if (player) return `model: replaying ${player.file} (no model is called)`;
      if (recorder) return `model: ${where}, recording to ${recorder.file}`;
      return `model: ${where}`;
    },
  };
}
