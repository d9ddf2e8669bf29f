// One call: timeline, transcript as it happens, tool calls, the end-of-call report, the recording,
// its warnings (a scripted conversation, a model failure), and buttons to end it, make the
// customer hang up, or speak as the customer.
import { endCallPath, sayPath } from '#core/emulator/control/paths';
import { useEffect, useState } from 'react';
import type { Delivery } from '#core/emulator/store/record';
import { api } from './api';
import { useFollow, useLive } from './live';
import type { CallState } from './live';
import { ModelTurns } from './ModelTurns';
import { Recording } from './Recording';
import { href } from './route';
import { Copy, Json, Status, Time, duration, resourceHref } from './ui';

interface ToolRow {
  id: string;
  name: string;
  args: string;
  server?: string;
  result?: string;
  failure?: string;
  ms?: number;
}

function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Tool calls from the `tool-calls` deliveries (with server and latency), then any the call's messages hold that no server got. */
function toolRows(s: CallState): ToolRow[] {
  const rows: ToolRow[] = [];
  for (const d of s.deliveries) {
    if (d.type !== 'tool-calls' || d.replayOf) continue;
    const list = Array.isArray(d.request.body.message.toolCallList) ? (d.request.body.message.toolCallList as unknown[]).map(obj) : [];
    const results = Array.isArray(obj(d.answer).results) ? (obj(d.answer).results as unknown[]).map(obj) : [];
    for (const c of list) {
      const r = results.find((x) => x.toolCallId === c.id);
      const fn = obj(c.function);
      const result = r ? (typeof r.result === 'string' ? r.result : JSON.stringify(r.result ?? r.error)) : undefined;
      rows.push({
        id: String(c.id),
        name: String(fn.name ?? '?'),
        args: String(fn.arguments ?? ''),
        server: d.url,
        ms: d.ms,
        ...(result !== undefined ? { result } : {}),
        ...(d.error || !r ? { failure: d.error ?? 'no result for this tool call' } : {}),
      });
    }
  }
  const messages = s.call?.messages ?? [];
  for (const m of messages) {
    if (m.role !== 'tool_calls' || !Array.isArray(m.toolCalls)) continue;
    for (const c of (m.toolCalls as unknown[]).map(obj)) {
      if (rows.some((r) => r.id === c.id)) continue;
      const res = messages.find((x) => x.role === 'tool_call_result' && x.toolCallId === c.id);
      const fn = obj(c.function);
      rows.push({ id: String(c.id), name: String(fn.name ?? '?'), args: String(fn.arguments ?? ''), ...(res ? { result: String(res.result) } : {}), failure: 'no server received it' });
    }
  }
  return rows;
}

function Actions({ id, running }: { id: string; running: boolean }) {
  const [note, setNote] = useState('');
  const end = (by: 'customer' | 'operator'): void => {
    setNote('');
    api(endCallPath(id), { method: 'POST', body: { by } }).then(
      () => setNote(by === 'customer' ? 'The customer hung up.' : 'Call ended.'),
      (e: Error) => setNote(e.message),
    );
  };
  return (
    <div className="actions">
      <button type="button" disabled={!running} onClick={() => end('operator')}>
        End call
      </button>
      <button type="button" disabled={!running} onClick={() => end('customer')}>
        Customer hangs up
      </button>
      <span role="status">{note}</span>
    </div>
  );
}

/** Speaks as the customer on a live call: the line is their next turn, and the assistant answers. */
function SayBox({ id, running }: { id: string; running: boolean }) {
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const submit = (e: { preventDefault(): void }): void => {
    e.preventDefault();
    const line = text.trim();
    if (!line) return;
    api(sayPath(id), { method: 'POST', body: { text: line } }).then(
      () => {
        setText('');
        setNote('Said. The call is yours now: the scripted customer says nothing more (it ends when you end it, or after 30 s without a line).');
      },
      (err: Error) => setNote(err.message),
    );
  };
  return (
    <form className="actions" onSubmit={submit} aria-label="Speak as the customer">
      <label>
        Say as the customer <input value={text} disabled={!running} onChange={(e) => setText(e.target.value)} placeholder="I'd like to book for Tuesday" size={40} />
      </label>
      <button type="submit" disabled={!running || !text.trim()}>
        Say
      </button>
      <span role="status">{note}</span>
    </form>
  );
}

function DeliveryLine({ d }: { d: Delivery }) {
  return (
    <li className={d.error ? 'fail' : undefined}>
      <Time at={d.sentAt} /> <strong>{d.type}</strong> → {d.status ?? 'no answer'} {d.error ? `(${d.error})` : ''} {d.ms.toFixed(0)} ms
    </li>
  );
}

/** What a call's view follows besides its status changes. */
const CALL_KINDS = ['call.transcript', 'call.log', 'delivery', 'call.model', 'call.tool', 'call.turn'] as const;

/** Why a call's transcript is empty. */
function silence(s: CallState, ended: boolean): string {
  if (!ended) return 'Nothing said yet.';
  const reason = s.call?.endedReason ?? s.statuses.at(-1)?.endedReason ?? 'no reason recorded';
  const answered = Boolean(s.call?.startedAt) || s.statuses.some((t) => t.status === 'in-progress');
  if (!answered) return `Nothing was said: the call ended before it was answered (${reason}).`;
  return `Nothing was said: the call was answered, then ended (${reason}) before the assistant or the customer spoke (no first message, no customer turns).`;
}

/** The view of one call. */
export function CallView({ id }: { id: string }) {
  const live = useLive();
  useFollow(CALL_KINDS, id);
  const s = live.calls.get(id) ?? live.callState(id);
  const c = s.call;
  const status = s.statuses.at(-1)?.status ?? c?.status;
  const ended = status === 'ended';
  // The whole call object (messages, analysis, cost breakdown): when the view opens, and again at
  // each status change (the end brings the report).
  useEffect(() => {
    void live.loadCall(id);
  }, [live, id, status]);
  const tools = toolRows(s);
  // The call's warnings and errors: a scripted conversation (no model configured), a model failure.
  const notes = s.logs.filter((l) => l.level === 'WARN' || l.level === 'ERROR');
  return (
    <article aria-labelledby="call-h">
      <p>
        <a href={href(['calls'])}>← All calls</a>
      </p>
      <h1 id="call-h">
        Call <span className="mono">{id}</span> <Copy text={id} label="call id" /> <Status status={status} />
      </h1>
      <dl className="facts">
        <dt>Type</dt>
        <dd>{c?.type ?? '—'}</dd>
        <dt>Assistant</dt>
        <dd>{c?.assistantId ? <a href={resourceHref('assistant', c.assistantId)}>{c.assistant?.name ?? live.assistantName(c.assistantId) ?? c.assistantId}</a> : (c?.assistant?.name ?? '—')}</dd>
        <dt>Customer</dt>
        <dd className="mono">{c?.customer?.number ?? '—'}</dd>
        <dt>Duration (simulated)</dt>
        <dd>{duration(c?.startedAt, c?.endedAt)}</dd>
        <dt>Ended reason</dt>
        <dd>{c?.endedReason ?? s.statuses.at(-1)?.endedReason ?? '—'}</dd>
        <dt>Cost</dt>
        <dd>{typeof c?.cost === 'number' ? `$${c.cost.toFixed(4)}` : '—'}</dd>
      </dl>
      <Actions id={id} running={Boolean(status) && !ended} />
      <SayBox id={id} running={Boolean(status) && !ended} />
      {notes.length > 0 && (
        <section aria-labelledby="notes-h">
          <h2 id="notes-h">Warnings and errors</h2>
          <ul className="compact">
            {notes.map((n, i) => (
              <li key={i} className={n.level === 'ERROR' ? 'fail' : undefined}>
                <Time at={n.at} /> {n.text}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="cols">
        <section aria-labelledby="tl-h">
          <h2 id="tl-h">Timeline</h2>
          <ol className="timeline">
            {s.statuses.map((t, i) => (
              <li key={i}>
                <Time at={t.at} /> <Status status={t.status} /> {t.endedReason ?? ''}
              </li>
            ))}
          </ol>
          {!s.statuses.length && <p className="muted">No status changes recorded in this run.</p>}
        </section>
        <section aria-labelledby="tr-h">
          <h2 id="tr-h">Transcript</h2>
          <ol className="transcript" aria-live="polite">
            {s.lines.map((l, i) => (
              <li key={i} className={`${l.role} ${l.partial ? 'partial' : ''}`}>
                <span className="who">{l.role === 'assistant' ? 'Assistant' : 'Customer'}</span>
                <span className="said">
                  {l.text}
                  {l.partial ? ' …' : ''}
                </span>
              </li>
            ))}
          </ol>
          {!s.lines.length && <p className="muted">{silence(s, ended)}</p>}
        </section>
      </div>
      <ModelTurns events={live.model.get(id) ?? []} metrics={c?.artifact?.performanceMetrics} ended={ended} />
      <section aria-labelledby="tools-h">
        <h2 id="tools-h">Tool calls</h2>
        {!tools.length && <p className="muted">No tool calls.</p>}
        {tools.map((t) => (
          <div key={t.id} className={`tool ${t.failure ? 'fail' : ''}`}>
            <h3>
              {t.name} <span className="mono muted">{t.id}</span>
            </h3>
            <p>
              Arguments: <code>{t.args}</code>
            </p>
            <p>
              Server: {t.server ? <code>{t.server}</code> : '—'}
              {t.ms !== undefined ? `, ${t.ms.toFixed(0)} ms` : ''}
            </p>
            <p>Result: {t.result !== undefined ? <q>{t.result}</q> : '—'}</p>
            {t.failure && <p className="error">Failure: {t.failure}</p>}
          </div>
        ))}
      </section>
      {ended && c?.endedAt && (
        <section aria-labelledby="eocr-h">
          <h2 id="eocr-h">End-of-call report</h2>
          <p>
            <strong>Ended reason:</strong> {c.endedReason}
          </p>
          {c.analysis?.summary && (
            <p>
              <strong>Summary:</strong> {c.analysis.summary}
            </p>
          )}
          {c.costBreakdown && (
            <table className="kv">
              <caption>Cost breakdown (made-up rates)</caption>
              <tbody>
                {Object.entries(c.costBreakdown)
                  .filter(([, v]) => typeof v === 'number')
                  .map(([k, v]) => (
                    <tr key={k}>
                      <th scope="row">{k}</th>
                      <td>{Number.isInteger(v) ? String(v) : (v as number).toFixed(4)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          )}
          {c.artifact?.recordingUrl && <Recording id={id} audioOff={notes.find((n) => n.text.startsWith('Audio: audio is off'))?.text} />}
        </section>
      )}
      <section aria-labelledby="del-h">
        <h2 id="del-h">
          Deliveries <a href={href(['deliveries'], { call: id })}>(inspect)</a>
        </h2>
        <ul className="compact">
          {s.deliveries.map((d) => (
            <DeliveryLine key={d.id} d={d} />
          ))}
        </ul>
        {!s.deliveries.length && <p className="muted">None.</p>}
      </section>
      {c && (
        <details>
          <summary>Call object (JSON)</summary>
          <Json value={c} label="call JSON" />
        </details>
      )}
    </article>
  );
}
