// Messages that belong to no running call: a chat or session created, updated or deleted, a call
// deleted. The platform sends them to the server its precedence picks for the subject's assistant
// (then its phone number, then the org), when that assistant's `serverMessages` asks for them.
import type { ServerMessageType } from '../../messages/index.js';
import { buildServerMessage, isSubscribed } from '../../messages/index.js';
import type { EmulatorRecord } from '../store/record.js';
import type { Rec, Store } from '../store/store.js';
import { chooseServer, deliver, withCredential } from './deliver.js';
import type { Delivered } from './deliver.js';
import { assistantFrom, orgOf, squadFrom } from './resolve.js';
import { isObject } from '../../json.js';

/** The lifecycle messages and what each one is about. */
export type LifecycleType = 'chat.created' | 'chat.deleted' | 'session.created' | 'session.updated' | 'session.deleted' | 'call.deleted' | 'call.delete.failed';

/** What `notify` needs from the emulator. */
export interface NotifyDeps {
  store: Store;
  record: EmulatorRecord;
}

const SUBJECT: Record<LifecycleType, 'chat' | 'session' | 'call'> = {
  'chat.created': 'chat',
  'chat.deleted': 'chat',
  'session.created': 'session',
  'session.updated': 'session',
  'session.deleted': 'session',
  'call.deleted': 'call',
  'call.delete.failed': 'call',
};

/**
 * Sends one lifecycle message about `subject` (the chat, session or call as stored); resolves with
 * the delivery, or undefined when no server is set or the assistant does not subscribe.
 */
export async function notify(deps: NotifyDeps, type: LifecycleType, subject: Rec): Promise<Delivered | undefined> {
  const { store } = deps;
  // A squad's chat, session or call belongs to its first member (the one that answers).
  const assistant = assistantFrom(store, subject) ?? squadFrom(store, subject)?.[0];
  if (!isSubscribed({ type }, assistant?.serverMessages as string[] | undefined)) return undefined;
  const phoneNumber = typeof subject.phoneNumberId === 'string' ? store.get('phone-number', subject.phoneNumberId) : isObject(subject.phoneNumber) ? subject.phoneNumber : undefined;
  const target = withCredential(chooseServer(type, { assistant, phoneNumber, org: orgOf(store) }), (id) => store.get('credential', id));
  if (!target) return undefined;
  const kind = SUBJECT[type];
  const customer = isObject(subject.customer) ? subject.customer : undefined;
  const message = buildServerMessage(type as ServerMessageType, {
    ...(kind === 'call' ? { call: subject } : {}),
    ...(assistant ? { assistant } : {}),
    ...(customer ? { customer } : {}),
    ...(phoneNumber ? { phoneNumber } : {}),
    ...(kind === 'call' ? {} : { data: { [kind]: subject } }),
  });
  return deliver(deps.record, target, subject.id, message);
}
