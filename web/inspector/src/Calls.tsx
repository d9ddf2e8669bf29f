// The calls list: newest first, live. A row redraws only when its call changed.
import { memo } from 'react';
import { localFlags } from '#core/hosts';
import { useLive } from './live';
import type { CallState } from './live';
import { href } from './route';
import { More, Status, Time, duration, useCap } from './ui';

/** One call's row; `v` is the call's change count (the state object itself is changed in place). */
const Row = memo(function Row({ s, name }: { s: CallState; v: number; name: string | undefined }) {
  const c = s.call;
  const status = s.statuses.at(-1)?.status ?? c?.status;
  const reason = c?.endedReason ?? s.statuses.at(-1)?.endedReason;
  return (
    <tr className={reason && reason !== 'customer-ended-call' && reason !== 'assistant-ended-call' ? 'warn' : undefined}>
      <td>
        <a href={href(['calls', s.id])} className="mono">
          {s.id.slice(0, 8)}
        </a>
      </td>
      <td>
        <Status status={status} />
      </td>
      <td className="opt">{c?.type ?? '—'}</td>
      <td>{name ?? c?.assistantId?.slice(0, 8) ?? (c?.squadId ? 'squad' : c?.workflowId ? 'workflow' : '—')}</td>
      <td className="mono">{c?.customer?.number ?? '—'}</td>
      <td>{duration(c?.startedAt, c?.endedAt)}</td>
      <td>{reason ?? ''}</td>
      <td className="opt">{typeof c?.cost === 'number' ? `$${c.cost.toFixed(4)}` : '—'}</td>
      <td className="opt">
        <Time at={c?.createdAt ?? s.statuses[0]?.at} />
      </td>
    </tr>
  );
});

/** Every call the emulator holds or ran, newest first. */
export function Calls() {
  const live = useLive();
  const [shown, more] = useCap(100);
  const ids = live.order.slice(0, shown);
  return (
    <section aria-labelledby="calls-h">
      <h1 id="calls-h">Calls</h1>
      {!ids.length && !live.callsLoaded && <p className="muted">Loading…</p>}
      {!ids.length && live.callsLoaded && (
        <p className="muted">
          {/* A command that runs as printed (no id to fill in): a call with an assistant of its own. */}
          No calls yet. Create one (<code>voice call create {localFlags(location.origin)} --set assistant.firstMessage=Hello. --set customer.number=+14155550100</code>, or Resources → an assistant →
          Start a call) and it appears here.
        </p>
      )}
      {ids.length > 0 && (
        <div className="table-wrap">
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Call</th>
                <th scope="col">Status</th>
                <th scope="col" className="opt">
                  Type
                </th>
                <th scope="col">Assistant</th>
                <th scope="col">Customer</th>
                <th scope="col">Duration</th>
                <th scope="col">Ended reason</th>
                <th scope="col" className="opt">
                  Cost
                </th>
                <th scope="col" className="opt">
                  Created
                </th>
              </tr>
            </thead>
            <tbody>
              {ids.map((id) => {
                const s = live.calls.get(id);
                if (!s) return null;
                return <Row key={id} s={s} v={s.v} name={s.call?.assistant?.name ?? live.assistantName(s.call?.assistantId)} />;
              })}
            </tbody>
          </table>
        </div>
      )}
      <More shown={shown} total={live.order.length} more={more} />
    </section>
  );
}
