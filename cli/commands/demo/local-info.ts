// What the demo tells its page about the local emulator a call runs on: whether it serves the
// inspector and whether a model runs the assistant (else the conversation is scripted). Asked at
// each call: a `voice dev` named by --api-url may restart with other settings meanwhile.
import { controlClient } from '#core/emulator/control/client';
import type { LocalCallInfo } from '#core/visitors/page-config';

/** The emulator at `baseUrl` as the page describes it (an emulator that does not say is taken as scripted, without an inspector). */
export async function localCallInfo(baseUrl: string, apiKey: string): Promise<LocalCallInfo> {
  const answer = await controlClient(baseUrl, { apiKey })
    .info<{ inspector?: unknown; model?: unknown }>()
    .catch(() => undefined);
  const info = answer?.ok && answer.body && typeof answer.body === 'object' ? answer.body : {};
  return { emulator: baseUrl, inspector: info.inspector === true, scripted: info.model !== true };
}
