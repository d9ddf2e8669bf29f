// A failed model request as the platform reports it: the `endedReason` of the assistant's provider
// family (`call.in-progress.error-...`), and a message that names the cause.

/** Providers whose family enumerates 400, 401, 403, 429, 500, 503 and llm-failed. */
const FULL_FAMILY = new Set(['custom-llm', 'openai', 'azure-openai']);
/** Providers whose family enumerates only 403 and llm-failed. */
const SHORT_FAMILY = new Set([
  'anthropic',
  'anthropic-bedrock',
  'anthropic-vertex',
  'anyscale',
  'baseten',
  'cerebras',
  'deep-seek',
  'deepinfra',
  'google',
  'groq',
  'inflection-ai',
  'minimax',
  'mistral',
  'openrouter',
  'perplexity-ai',
  'runpod',
  'together-ai',
  'vapi',
  'xai',
]);

/** Why a model request failed, before it is named the platform's way. */
export type FailureCause =
  | { kind: 'unreachable'; detail: string }
  | { kind: 'timeout'; seconds: number }
  | { kind: 'http'; status: number; body: string }
  | { kind: 'malformed'; detail: string }
  | { kind: 'aborted' }
  | { kind: 'cassette-miss'; detail: string }
  | { kind: 'config'; detail: string }
  | { kind: 'auth'; detail: string };

/** The provider family whose endedReason values a failure is named with (an unknown provider reads as openai: the request went to an OpenAI-compatible endpoint). */
export function familyOf(provider: unknown): string {
  const p = typeof provider === 'string' ? provider : '';
  return FULL_FAMILY.has(p) || SHORT_FAMILY.has(p) ? p : 'openai';
}

function httpReason(family: string, status: number, body: string): string {
  const full = FULL_FAMILY.has(family);
  if (status === 403) return `call.in-progress.error-vapifault-${family}-403-model-access-denied`;
  if (!full) return `call.in-progress.error-providerfault-${family}-llm-failed`;
  if (status === 401) {
    return family === 'openai' && /invalid_api_key|incorrect api key/i.test(body)
      ? 'call.in-progress.error-vapifault-openai-401-incorrect-api-key'
      : `call.in-progress.error-vapifault-${family}-401-unauthorized`;
  }
  if (status === 429) {
    return family === 'openai' && !/quota/i.test(body) ? 'call.in-progress.error-vapifault-openai-429-rate-limit-reached' : `call.in-progress.error-vapifault-${family}-429-exceeded-quota`;
  }
  if (status === 503) return `call.in-progress.error-providerfault-${family}-503-server-overloaded-error`;
  if (status >= 500) return `call.in-progress.error-providerfault-${family}-500-server-error`;
  if (status >= 400) return `call.in-progress.error-vapifault-${family}-400-bad-request-validation-failed`;
  return `call.in-progress.error-providerfault-${family}-llm-failed`;
}

/** The endedReason the platform gives a call whose model request failed this way. */
export function endedReasonFor(provider: unknown, cause: FailureCause): string {
  const family = familyOf(provider);
  if (cause.kind === 'http') return httpReason(family, cause.status, cause.body);
  if (cause.kind === 'auth') return httpReason(family, 401, '');
  return `call.in-progress.error-providerfault-${family}-llm-failed`;
}

/** One line naming the cause, for logs, the inspector and a chat's error body. */
export function describeFailure(url: string, cause: FailureCause): string {
  switch (cause.kind) {
    case 'unreachable':
      return `the model at ${url} could not be reached: ${cause.detail}`;
    case 'timeout':
      return `the model at ${url} sent no first byte within ${cause.seconds} s (timeoutSeconds)`;
    case 'http': {
      const body = cause.body.trim().replace(/\s+/g, ' ');
      return `the model at ${url} answered HTTP ${cause.status}${body ? `: ${body.length > 500 ? `${body.slice(0, 500)}…` : body}` : ''}`;
    }
    case 'malformed':
      return `the model at ${url} sent a malformed stream: ${cause.detail}`;
    case 'aborted':
      return `the request to the model at ${url} was cancelled`;
    case 'cassette-miss':
    case 'config':
    case 'auth':
      return cause.detail;
  }
}
