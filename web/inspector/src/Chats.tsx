// Chats (`POST /chat`, `/chat/responses` and their web variants): the list, and one chat's view
// with what was said and the model's side of its turn, as a call's view shows it.
import { useEffect, useState } from 'react';
import { api } from './api';
import { ModelTurns } from './ModelTurns';
import { useFollow, useLive } from './live';
import { href } from './route';
import { Copy, Json, Time, resourceHref } from './ui';

interface ApiChat {
  id: string;
  assistantId?: string;
  name?: string;
  sessionId?: string;
  previousChatId?: string;
  createdAt?: string;
  messages?: Record<string, unknown>[];
  output?: Record<string, unknown>[];
}

function text(m: Record<string, unknown> | undefined): string {
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.tool_calls)) return `(calls ${m.tool_calls.length} tool${m.tool_calls.length === 1 ? '' : 's'})`;
  return m.content == null ? '' : JSON.stringify(m.content);
}

/** The chats the emulator holds (newest first), or one chat; refetched when the record brings a chat's model events. */
function useChats<T>(path: string): [T | string | undefined, () => void] {
  const live = useLive();
  const [got, setGot] = useState<T | string | undefined>();
  const [asked, setAsked] = useState(0);
  const seen = live.model.size;
  useEffect(() => {
    let on = true;
    api<T>(path).then(
      (v) => on && setGot(v),
      (e: Error) => on && setGot(e.message),
    );
    return () => {
      on = false;
    };
  }, [path, seen, asked]);
  return [got, () => setAsked((n) => n + 1)];
}

const MODEL_KINDS = ['call.model', 'call.tool', 'call.turn'] as const;

/** Every chat, newest first. */
export function Chats() {
  useFollow(MODEL_KINDS);
  const [page, refresh] = useChats<{ results?: ApiChat[] }>('/chat?limit=100');
  const chats = typeof page === 'object' ? (page.results ?? []) : page;
  return (
    <section aria-labelledby="chats-h">
      <h1 id="chats-h">Chats</h1>
      <p>
        <button type="button" onClick={refresh}>
          Refresh
        </button>{' '}
        <span className="muted">Chats answered by a model appear by themselves; scripted ones after a refresh.</span>
      </p>
      {chats === undefined && <p className="muted">Loading…</p>}
      {typeof chats === 'string' && <p className="error">{chats}</p>}
      {Array.isArray(chats) && !chats.length && <p className="muted">No chats yet. Send one (POST /chat with an assistantId and an input) and it appears here.</p>}
      {Array.isArray(chats) && chats.length > 0 && (
        <div className="table-wrap">
          <table className="list rows-table">
            <thead>
              <tr>
                <th scope="col">Chat</th>
                <th scope="col">Created</th>
                <th scope="col">Customer said</th>
                <th scope="col">Assistant answered</th>
              </tr>
            </thead>
            <tbody>
              {chats.map((c) => (
                <tr key={c.id}>
                  <td>
                    <a className="mono" href={href(['chats', c.id])}>
                      {c.id.slice(0, 8)}
                    </a>
                  </td>
                  <td>
                    <Time at={c.createdAt} />
                  </td>
                  <td className="said">{text([...(c.messages ?? [])].reverse().find((m) => m.role === 'user'))}</td>
                  <td className="said">{text([...(c.output ?? [])].reverse().find((m) => m.role === 'assistant' && typeof m.content === 'string'))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** One chat: its messages, its answer, and the model's side of the turn. */
export function ChatView({ id }: { id: string }) {
  const live = useLive();
  useFollow(MODEL_KINDS, id);
  const [chat] = useChats<ApiChat>(`/chat/${encodeURIComponent(id)}`);
  const c = typeof chat === 'object' ? chat : undefined;
  const said = [...(c?.messages ?? []), ...(c?.output ?? [])].filter((m) => m.role === 'user' || (m.role === 'assistant' && typeof m.content === 'string' && m.content));
  return (
    <article aria-labelledby="chat-h">
      <p>
        <a href={href(['chats'])}>← All chats</a>
      </p>
      <h1 id="chat-h">
        Chat <span className="mono">{id}</span> <Copy text={id} label="chat id" />
      </h1>
      {typeof chat === 'string' && <p className="error">{chat}</p>}
      <dl className="facts">
        <dt>Assistant</dt>
        <dd>{c?.assistantId ? <a href={resourceHref('assistant', c.assistantId)}>{live.assistantName(c.assistantId) ?? c.assistantId}</a> : '—'}</dd>
        <dt>Created</dt>
        <dd>
          <Time at={c?.createdAt} />
        </dd>
        <dt>Previous chat</dt>
        <dd>{c?.previousChatId ? <a href={href(['chats', c.previousChatId])}>{c.previousChatId.slice(0, 8)}</a> : '—'}</dd>
      </dl>
      <section aria-labelledby="chat-tr-h">
        <h2 id="chat-tr-h">Conversation</h2>
        <ol className="transcript">
          {said.map((m, i) => (
            <li key={i} className={m.role === 'user' ? 'user' : 'assistant'}>
              <span className="who">{m.role === 'user' ? 'Customer' : 'Assistant'}</span>
              <span className="said">{text(m)}</span>
            </li>
          ))}
        </ol>
        {c && !said.length && <p className="muted">Nothing said: the chat has no user input or answer text.</p>}
      </section>
      <ModelTurns
        events={live.model.get(id) ?? []}
        ended
        empty="No model turn recorded: the assistant has no model configured (the answer is scripted), or the chat is older than this run of the emulator."
      />
      {c && (
        <details>
          <summary>Chat object (JSON)</summary>
          <Json value={c} label="chat JSON" />
        </details>
      )}
    </article>
  );
}
