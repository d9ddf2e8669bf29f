// Creates the web call with one plain fetch, so the client does not pull in the REST client.
import { PLATFORM_API } from '../hosts.js';
import type { InlineAssistant, InlineSquad, InlineWorkflow, StartAssistantOverrides, StartWorkflowOverrides, WebCallResponse } from './types.js';
import { WebCallCreationError } from './errors.js';
import { VoiceError } from '../errors.js';

export { WebCallCreationError };

/** The platform's API host, used when no base URL is given. */
export const DEFAULT_BASE_URL = PLATFORM_API;

/** Body of `POST /call/web`: each target as an id or an inline object. */
export interface WebCallPayload {
  assistant?: InlineAssistant;
  assistantId?: string;
  assistantOverrides?: StartAssistantOverrides;
  squad?: InlineSquad;
  squadId?: string;
  workflow?: InlineWorkflow;
  workflowId?: string;
  workflowOverrides?: StartWorkflowOverrides;
  roomDeleteOnUserLeaveEnabled?: boolean;
}

/** Builds the creation payload from start()'s arguments. */
export function webCallPayload(
  assistant: InlineAssistant | string | undefined,
  assistantOverrides: StartAssistantOverrides | undefined,
  squad: InlineSquad | string | undefined,
  workflow: InlineWorkflow | string | undefined,
  workflowOverrides: StartWorkflowOverrides | undefined,
  roomDeleteOnUserLeaveEnabled?: boolean,
): WebCallPayload {
  const payload: WebCallPayload = {};
  if (typeof assistant === 'string') payload.assistantId = assistant;
  else if (assistant) payload.assistant = assistant;
  if (assistantOverrides) payload.assistantOverrides = assistantOverrides;
  if (typeof squad === 'string') payload.squadId = squad;
  else if (squad) payload.squad = squad;
  if (typeof workflow === 'string') payload.workflowId = workflow;
  else if (workflow) payload.workflow = workflow;
  if (workflowOverrides) payload.workflowOverrides = workflowOverrides;
  if (roomDeleteOnUserLeaveEnabled !== undefined) payload.roomDeleteOnUserLeaveEnabled = roomDeleteOnUserLeaveEnabled;
  return payload;
}

/** The `POST /call/web` URL for a base URL; throws a clear error when the base is not a URL. */
export function webCallEndpoint(baseUrl: string): string {
  const url = `${baseUrl.replace(/\/+$/, '')}/call/web`;
  try {
    new URL(url);
  } catch {
    throw new VoiceError(`The API base URL is not a valid URL: ${JSON.stringify(baseUrl)}`);
  }
  return url;
}

/** Posts the payload and returns the created call; throws on a non-ok answer or a call without a room URL. */
export async function createWebCall(fetchImpl: typeof fetch, endpoint: string, publicKey: string, payload: WebCallPayload, signal: AbortSignal): Promise<WebCallResponse & { webCallUrl: string }> {
  const response = await fetchImpl(endpoint, {
    method: 'POST',
    headers: { Authorization: `Bearer ${publicKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(payload),
    signal,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: keep the text for the message.
  }
  if (!response.ok) {
    const detail = (body as { message?: unknown } | null)?.message ?? body;
    const reason = Array.isArray(detail) ? detail.join('; ') : typeof detail === 'string' ? detail : JSON.stringify(detail);
    throw new WebCallCreationError(`Creating the web call failed: ${response.status}${reason ? ` ${reason}` : ''}`, response.status, body);
  }
  const call = body as WebCallResponse | null;
  const url = call?.webCallUrl ?? call?.transport?.callUrl;
  if (!call || typeof url !== 'string' || !url) throw new WebCallCreationError('The created web call has no webCallUrl.', response.status, body);
  return { ...call, webCallUrl: url };
}
