// Every server message the emulator sent, filterable by type, call and outcome, with Replay.
import { deliveryPath, replayPath } from '#core/emulator/control/paths';
import { Fragment, useEffect, useState } from 'react';
import type { Delivery } from '#core/emulator/store/record';
import { api } from './api';
import { useFollow, useLive } from './live';
import { href } from './route';
import { Copy, Json, More, Time, useCap } from './ui';

function go(query: URLSearchParams, key: string, value: string): void {
  const next = new URLSearchParams(query);
  if (value) next.set(key, value);
  else next.delete(key);
  location.hash = href(['deliveries'], Object.fromEntries(next));
}

/** The whole delivery: the live stream carries most without their bodies. */
function Detail({ d: shown }: { d: Delivery & { stripped?: boolean } }) {
  const [full, setFull] = useState<Delivery | string | undefined>(shown.stripped ? undefined : shown);
  useEffect(() => {
    if (!shown.stripped) return;
    let on = true;
    api<Delivery>(deliveryPath(shown.id)).then(
      (d) => on && setFull(d),
      (e: Error) => on && setFull(e.message),
    );
    return () => {
      on = false;
    };
  }, [shown]);
  if (full === undefined) return <p className="muted detail">Loading…</p>;
  if (typeof full === 'string') return <p className="error detail">{full}</p>;
  return <Full d={full} />;
}

function Full({ d }: { d: Delivery }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const replay = (): void => {
    setBusy(true);
    setNote('');
    api<Delivery>(replayPath(d.id), { method: 'POST' })
      .then(
        (n) => setNote(`Replayed as ${n.id}: ${n.status ?? 'no answer'}${n.error ? ` (${n.error})` : ''}, ${n.ms.toFixed(0)} ms`),
        (e: Error) => setNote(`Replay failed: ${e.message}`),
      )
      .finally(() => setBusy(false));
  };
  return (
    <div className="detail">
      <p>
        <button type="button" onClick={replay} disabled={busy}>
          Replay
        </button>{' '}
        <span role="status">{note}</span>
      </p>
      <p>
        <strong>POST</strong> <code>{d.url}</code> <Copy text={d.url} label="URL" />
      </p>
      {d.replayOf && <p>Replay of {d.replayOf}</p>}
      {d.error && <p className="error">Failure: {d.error}</p>}
      <h3>Request headers</h3>
      <Json value={d.request.headers} label="request headers" />
      <h3>Request body</h3>
      <Json value={d.request.body} label="request body" />
      <h3>
        Answer: {d.status ?? 'none'} in {d.ms.toFixed(0)} ms
      </h3>
      <Json value={d.answer} label="answer body" />
    </div>
  );
}

const DELIVERIES = ['delivery'] as const;

/** The deliveries list with its filters. */
export function Deliveries({ query }: { query: URLSearchParams }) {
  const live = useLive();
  useFollow(DELIVERIES);
  const [open, setOpen] = useState<string | undefined>();
  const [shown, more] = useCap(100);
  const type = query.get('type') ?? '';
  const call = query.get('call') ?? '';
  const outcome = query.get('outcome') ?? '';
  const types = [...new Set(live.deliveries.map((d) => d.type))].sort();
  const all = live.deliveries.filter((d) => (!type || d.type === type) && (!call || d.callId.startsWith(call)) && (!outcome || (outcome === 'failed') === Boolean(d.error)));
  const rows = all.slice(-shown).reverse();
  return (
    <section aria-labelledby="del-h">
      <h1 id="del-h">Deliveries</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Type{' '}
          <select value={type} onChange={(e) => go(query, 'type', e.target.value)}>
            <option value="">all</option>
            {types.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Call <input value={call} placeholder="call id" onChange={(e) => go(query, 'call', e.target.value.trim())} />
        </label>
        <label>
          Outcome{' '}
          <select value={outcome} onChange={(e) => go(query, 'outcome', e.target.value)}>
            <option value="">all</option>
            <option value="ok">answered</option>
            <option value="failed">failed</option>
          </select>
        </label>
        <span className="muted">
          {all.length} of {live.deliveries.length}
        </span>
      </form>
      <div className="table-wrap">
        <table className="list rows-table">
          <thead>
            <tr>
              <th scope="col">Sent</th>
              <th scope="col">Type</th>
              <th scope="col">Call</th>
              <th scope="col">Server</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <Fragment key={d.id}>
                <tr className={d.error ? 'fail' : undefined}>
                  <td>
                    <button type="button" className="open" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? undefined : d.id)}>
                      <Time at={d.sentAt} />
                    </button>
                  </td>
                  <td className="type">
                    {d.type} {d.replayOf && <span className="tag">replay</span>}
                  </td>
                  <td className="mono">{d.callId.slice(0, 8)}</td>
                  <td className="url">{d.url}</td>
                  <td className="code">{d.status ?? 'no answer'}</td>
                  <td className="num">{d.ms.toFixed(0)} ms</td>
                </tr>
                {open === d.id && (
                  <tr>
                    <td colSpan={6} className="wrap">
                      <Detail d={d} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
      {!rows.length && <p className="muted">No deliveries{type || call || outcome ? ' match these filters' : ' yet'}.</p>}
      <More shown={shown} total={all.length} more={more} />
    </section>
  );
}
