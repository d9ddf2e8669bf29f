// The platform's conversations: calls and their customers, chats, campaigns, sessions and call logs.
import type { Open, Stored } from './models-base.js';
import type { ArtifactPlan, AssistantInput, Assistant, AssistantOverrides, SquadInput, WorkflowInput } from './models-agents.js';

/** The person on the other end of a call. */
export interface Customer extends Open {
  number?: string;
  name?: string;
  email?: string;
}

/** Kinds of call. */
export type CallType = 'inboundPhoneCall' | 'outboundPhoneCall' | 'webCall' | 'vapi.websocketCall';

/** Fields accepted when creating a call. */
export interface CallInput extends Open {
  name?: string;
  assistantId?: string;
  assistant?: AssistantInput;
  assistantOverrides?: AssistantOverrides;
  squadId?: string;
  squad?: SquadInput;
  workflowId?: string;
  workflow?: WorkflowInput;
  workflowOverrides?: Open;
  phoneNumberId?: string;
  customer?: Customer;
  customerId?: string;
}

/** A stored call. */
export interface Call extends Stored {
  type?: CallType;
  status?: 'scheduled' | 'queued' | 'ringing' | 'in-progress' | 'forwarding' | 'ended' | string;
  endedReason?: string;
  cost?: number;
  startedAt?: string;
  endedAt?: string;
  assistantId?: string;
  assistant?: Assistant | AssistantInput;
  squadId?: string;
  workflowId?: string;
  phoneNumberId?: string;
  customer?: Customer;
  name?: string;
  /** Present on web calls: the room the browser joins. */
  webCallUrl?: string;
  artifactPlan?: ArtifactPlan;
}

/** A stored chat. */
export interface Chat extends Stored {
  assistantId?: string;
  sessionId?: string;
  name?: string;
  input?: string | Open[];
  messages?: Open[];
  output?: Open[];
  cost?: number;
}

/** A stored campaign. */
export interface Campaign extends Stored {
  name: string;
  status: 'scheduled' | 'in-progress' | 'ended' | string;
  assistantId?: string;
  workflowId?: string;
  squadId?: string;
  phoneNumberId?: string;
  customers?: Customer[];
}

/** A stored session. */
export interface Session extends Stored {
  name?: string;
  status?: 'active' | 'completed' | string;
  assistantId?: string;
  squadId?: string;
}

/** A log line of a call. */
export interface Log extends Open {
  callId?: string;
  orgId: string;
  time: string;
  type?: string;
  level?: string;
  log?: string;
}
