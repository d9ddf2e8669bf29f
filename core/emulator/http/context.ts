// What a route handler gets and gives back.
import type { Entry } from '../../catalogue/index.js';
import type { Query } from './io.js';
import type { Form } from './multipart.js';
import type { RunHost } from '../actions/runs.js';
import type { Rec, Store } from '../store/store.js';
import type { ModelGateway } from '../../model/index.js';
import type { EmulatorRecord } from '../store/record.js';
import type { LifecycleType, RecordingKind } from '../calls/index.js';
import type { CampaignEngine } from '../campaigns/engine.js';

/** Settings and sample data shared by every handler. */
export interface Env {
  /** Base URL of the running emulator. */
  url: string;
  /** Where web-call rooms live, e.g. `https://vapi.daily.co`; empty: on the emulator itself. */
  webCallUrlBase: string;
  /** Runs calls once created (absent: calls are stored and stay as created). */
  calls?: {
    start(call: Rec): void;
    /** Sends a lifecycle message (chat, session, call deletion) about a stored record, in the background. */
    notify(type: LifecycleType, subject: Rec): void;
    /** Whether a call is running now (absent: none is). */
    isRunning?(callId: string): boolean;
    /** The WAV of one kind of an ended call's recording. */
    recording?(kind: RecordingKind, call: Rec): Promise<Buffer>;
  };
  /** The door to assistants' models, for chats (absent: chats are scripted). */
  model?: ModelGateway;
  /** The record, where chats' tool deliveries land. */
  record?: EmulatorRecord;
  /** Plays evals, simulations and structured-output runs on the model step (absent: those runs fail saying so). */
  runs?: RunHost;
  /** Runs campaigns once created (absent: campaigns are stored and never dial). */
  campaigns?: CampaignEngine;
}

/** One request, as a handler sees it. */
export interface Ctx {
  readonly entry: Entry;
  /** Path values by the template's names. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: Query;
  /** The JSON body (empty for multipart or bodiless requests). */
  readonly body: Record<string, unknown>;
  /** The parsed multipart form, for upload operations. */
  readonly form: Form | undefined;
  readonly store: Store;
  readonly env: Env;
}

/** A handler's answer; `changed` asks for the data file to be written before replying. */
export interface Reply {
  status: number;
  body: unknown;
  changed?: boolean;
  /** Sends `body` (a string or bytes) as is with this content type instead of as JSON. */
  contentType?: string;
  /** Streams the answer instead of `body`: the headers go at once, then each chunk as it is written (server-sent events). */
  stream?: (write: (chunk: string) => void) => Promise<void>;
}

/** Answers one operation. */
export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;
