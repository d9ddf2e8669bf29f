import { isObject } from '#core/json';
// The one line a person needs about a server message: its type, its call, and the detail that
// matters for that type (status, who said what, which tool with which arguments, why it ended).

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (isObject(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A short, one-line rendering of a value (JSON for objects), cut at `max` characters. */
export function short(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Speaker label: the platform says `bot` or `assistant` for the assistant and `user` for the customer. */
export function speaker(role: unknown): string {
  if (role === 'bot' || role === 'assistant') return 'assistant';
  if (role === 'user' || role === 'customer') return 'customer';
  return typeof role === 'string' ? role : '?';
}

/** `name({"a":1})` for one tool call of the platform's `toolCallList` shape. */
export function toolCallText(call: unknown): string {
  const c = obj(call);
  const fn = obj(c.function);
  const name = str(fn.name) ?? str(c.name) ?? '?';
  let args = fn.arguments ?? c.arguments ?? c.parameters;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      // Arguments the model produced as broken JSON are shown as they came.
    }
  }
  return `${name}(${args === undefined ? '' : short(args, 80)})`;
}

function duration(a: unknown, b: unknown): number | undefined {
  const start = typeof a === 'string' ? Date.parse(a) : NaN;
  const end = typeof b === 'string' ? Date.parse(b) : NaN;
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, (end - start) / 1000) : undefined;
}

/** "ended: customer-ended-call, $0.12, 41 s" from an ended call or an end-of-call report. */
export function endedText(source: Obj, call: Obj = {}): string {
  const reason = str(source.endedReason) ?? str(call.endedReason) ?? 'unknown reason';
  const cost = typeof source.cost === 'number' ? source.cost : typeof call.cost === 'number' ? call.cost : undefined;
  const secs = typeof source.durationSeconds === 'number' ? source.durationSeconds : duration(source.startedAt ?? call.startedAt, source.endedAt ?? call.endedAt);
  return [reason, cost === undefined ? '' : `$${cost.toFixed(4).replace(/0{1,2}$/, '')}`, secs === undefined ? '' : `${Math.round(secs)} s`].filter(Boolean).join(', ');
}

/** The call id a message is about (from `call.id`, else `callId`, else the chat or session id). */
export function callIdOf(message: Obj): string | undefined {
  return str(obj(message.call).id) ?? str(message.callId) ?? str(obj(message.chat).id) ?? str(obj(message.session).id);
}

/** What matters in one server message, as one line of text (empty when nothing stands out). */
export function detailOf(message: Obj): string {
  const type = str(message.type) ?? '';
  switch (type.replace(/\[.*$/, '')) {
    case 'status-update':
      return [str(message.status), str(message.endedReason)].filter(Boolean).join(': ');
    case 'transcript':
      return `${speaker(message.role)}${message.transcriptType === 'partial' ? ' (partial)' : ''}: ${short(message.transcript ?? '')}`;
    case 'tool-calls':
      return arr(message.toolCallList).map(toolCallText).join(', ');
    case 'end-of-call-report':
      return endedText(message, obj(message.call));
    case 'speech-update':
      return `${speaker(message.role)} ${str(message.status) ?? ''}`.trim();
    case 'conversation-update': {
      const list = arr(message.messages).length ? arr(message.messages) : arr(message.messagesOpenAIFormatted);
      if (!list.length) return '';
      const last = obj(list.at(-1));
      const text = str(last.message) ?? str(last.content);
      const tools = arr(last.toolCalls ?? last.tool_calls);
      const what = text
        ? `${speaker(last.role)}: ${short(text, 80)}`
        : tools.length
          ? `tool call ${tools.map(toolCallText).join(', ')}`
          : str(last.name)
            ? `tool result ${str(last.name)}: ${short(last.result ?? '', 60)}`
            : speaker(last.role);
      return `${list.length} messages, last ${what}`;
    }
    case 'model-output':
      return short(message.output ?? '');
    case 'assistant-request': {
      const from = str(obj(message.customer).number) ?? str(obj(obj(message.call).customer).number);
      return from ? `inbound from ${from}` : 'inbound call';
    }
    case 'transfer-destination-request':
    case 'handoff-destination-request':
      return message.parameters === undefined ? '' : short(message.parameters, 80);
    case 'transfer-update':
      return short(message.destination ?? '', 80);
    case 'knowledge-base-request': {
      const last = obj(arr(message.messagesOpenAIFormatted).at(-1));
      return str(last.content) ? `for: ${short(last.content, 80)}` : '';
    }
    case 'language-change-detected':
      return str(message.language) ?? '';
    case 'voice-input':
      return short(message.input ?? '');
    case 'assistant.speechStarted':
    case 'voice-request':
      return short(message.text ?? '');
    case 'phone-call-control':
      return str(message.request) ?? '';
    case 'campaign.predial':
      return str(message.campaignId) ? `campaign ${str(message.campaignId)}` : '';
    case 'campaign.event':
      return [str(message.eventType), str(obj(message.data).contactId) ? `contact ${str(obj(message.data).contactId)}` : undefined].filter(Boolean).join(' ');
    default:
      return '';
  }
}
