// Every REST request the emulator answered; one opens with its bodies (keys masked).
import { requestPath } from '#core/emulator/control/paths';
import { Fragment, useEffect, useState } from 'react';
import { api } from './api';
import { useFollow, useLive } from './live';
import type { RequestEvent } from './live';
import { href } from './route';
import { Json, More, Time, useCap } from './ui';

interface Detail extends RequestEvent {
  requestBody?: unknown;
  responseBody?: unknown;
}

function Bodies({ seq }: { seq: string }) {
  const [detail, setDetail] = useState<Detail | string | undefined>();
  useEffect(() => {
    let on = true;
    api<Detail>(requestPath(seq)).then(
      (d) => on && setDetail(d),
      (e: Error) => on && setDetail(e.message),
    );
    return () => {
      on = false;
    };
  }, [seq]);
  if (detail === undefined) return <p className="muted">Loading…</p>;
  if (typeof detail === 'string') return <p className="error">{detail}</p>;
  return (
    <div className="detail">
      <h3>Request body</h3>
      <Json value={detail.requestBody} label="request body" />
      <h3>Response body ({detail.status})</h3>
      <Json value={detail.responseBody} label="response body" />
    </div>
  );
}

const REQUESTS = ['request'] as const;

/** The requests list. */
export function Requests({ selected }: { selected: string | undefined }) {
  const live = useLive();
  useFollow(REQUESTS);
  const [own, setOwn] = useState(false);
  const [shown, more] = useCap(100);
  const all = live.requests.filter((r) => own || !r.inspector);
  const rows = all.slice(-shown).reverse();
  return (
    <section aria-labelledby="req-h">
      <h1 id="req-h">Requests</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          <input type="checkbox" checked={own} onChange={(e) => setOwn(e.target.checked)} /> Show this page's own requests
        </label>
        <span className="muted">{all.length} requests</span>
      </form>
      <div className="table-wrap">
        <table className="list rows-table">
          <thead>
            <tr>
              <th scope="col">At</th>
              <th scope="col">Method</th>
              <th scope="col">Path</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
              <th scope="col">User agent</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const seq = String(r.seq);
              const isOpen = selected === seq;
              return (
                <Fragment key={seq}>
                  <tr className={r.status >= 400 ? 'fail' : undefined}>
                    <td>
                      <a className="open" href={isOpen ? href(['requests']) : href(['requests', seq])} aria-expanded={isOpen}>
                        <Time at={r.at} />
                      </a>
                    </td>
                    <td className="type">{r.method}</td>
                    <td className="url">{r.path}</td>
                    <td className="code">{r.status}</td>
                    <td className="num">{r.ms.toFixed(1)} ms</td>
                    <td className="ua">{r.userAgent ?? 'no user agent'}</td>
                  </tr>
                  {(r.message || isOpen) && (
                    <tr>
                      <td colSpan={6} className="wrap">
                        {r.message && <p className="error msg">{r.message}</p>}
                        {isOpen && <Bodies seq={seq} />}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {!rows.length && <p className="muted">No requests yet.</p>}
      <More shown={shown} total={all.length} more={more} />
    </section>
  );
}
