// Campaigns: the list with each campaign's progress, and one campaign's view with its counters,
// its contacts and what happened to each (linked to their calls), read again as the record tells
// of a change.
import { Fragment, useEffect, useState } from 'react';
import { api } from './api';
import { useFollow, useLive } from './live';
import { href } from './route';
import { Copy, Json, Status, Time, resourceHref } from './ui';

interface Counters {
  pending: number;
  dispatched: number;
  completed: number;
  failed: number;
  skipped: number;
  predialFailed: number;
}

interface ApiCampaign {
  id: string;
  name?: string;
  status?: string;
  endedReason?: string;
  assistantId?: string;
  phoneNumberId?: string;
  maxConcurrency?: number;
  createdAt?: string;
  schedulePlan?: { earliestAt?: string; latestAt?: string };
  predialPlan?: unknown;
  callsCounterScheduled?: number;
  callsCounterQueued?: number;
  callsCounterInProgress?: number;
  callsCounterEnded?: number;
  callsCounterEndedVoicemail?: number;
  contactCounters?: Counters;
  callMetrics?: { dialed: number; connected: number };
}

interface Contact {
  id: string;
  number: string;
  name?: string;
  status: string;
  callId?: string;
  dispatchedAt?: string;
  endedReason?: string;
}

const CAMPAIGN_KINDS = ['campaign'] as const;

/** Reads `path` again whenever a campaign changes (at most as often as the page draws). */
function useRead<T>(path: string): T | string | undefined {
  const live = useLive();
  const [got, setGot] = useState<T | string | undefined>();
  const changes = live.campaignChanges;
  useEffect(() => {
    let on = true;
    api<T>(path).then(
      (v) => on && setGot(v),
      (e: Error) => on && setGot(e.message),
    );
    return () => {
      on = false;
    };
  }, [path, changes]);
  return got;
}

function progress(c: ApiCampaign): string {
  const k = c.contactCounters;
  if (!k) return '—';
  const total = k.pending + k.dispatched + k.completed + k.failed + k.skipped + k.predialFailed;
  return `${total - k.pending - k.dispatched} of ${total} done`;
}

/** Every campaign, newest first. */
export function Campaigns() {
  useFollow(CAMPAIGN_KINDS);
  const page = useRead<{ results?: ApiCampaign[] }>('/v2/campaign?limit=100&includeCounters=true');
  const list = typeof page === 'object' ? (page.results ?? []) : page;
  return (
    <section aria-labelledby="campaigns-h">
      <h1 id="campaigns-h">Campaigns</h1>
      {list === undefined && <p className="muted">Loading…</p>}
      {typeof list === 'string' && <p className="error">{list}</p>}
      {Array.isArray(list) && !list.length && (
        <p className="muted">No campaigns yet. Create one (voice campaign create --customers-csv leads.csv --set name=... --set phoneNumberId=...) and it dials here.</p>
      )}
      {Array.isArray(list) && list.length > 0 && (
        <div className="table-wrap">
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Campaign</th>
                <th scope="col">Status</th>
                <th scope="col">Contacts</th>
                <th scope="col">Calls now</th>
                <th scope="col">Picked up</th>
                <th scope="col" className="opt">
                  Created
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr key={c.id}>
                  <td>
                    <a href={href(['campaigns', c.id])}>{c.name ?? c.id.slice(0, 8)}</a>
                  </td>
                  <td>
                    <Status status={c.status} />
                  </td>
                  <td>{progress(c)}</td>
                  <td>{(c.callsCounterQueued ?? 0) + (c.callsCounterInProgress ?? 0)}</td>
                  <td>{c.callMetrics ? `${c.callMetrics.connected} of ${c.callMetrics.dialed}` : '—'}</td>
                  <td className="opt">
                    <Time at={c.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** One campaign: its settings, counters and contacts. */
export function CampaignView({ id }: { id: string }) {
  useFollow(CAMPAIGN_KINDS);
  const got = useRead<ApiCampaign>(`/v2/campaign/${encodeURIComponent(id)}?includeCounters=true`);
  const contacts = useRead<{ results?: Contact[] }>(`/v2/campaign/${encodeURIComponent(id)}/contacts?limit=1000`);
  const c = typeof got === 'object' ? got : undefined;
  const rows = typeof contacts === 'object' ? (contacts.results ?? []) : [];
  const counters: [string, number | undefined][] = [
    ['Scheduled', c?.callsCounterScheduled],
    ['Queued', c?.callsCounterQueued],
    ['In progress', c?.callsCounterInProgress],
    ['Ended', c?.callsCounterEnded],
    ['Voicemail', c?.callsCounterEndedVoicemail],
  ];
  return (
    <article aria-labelledby="campaign-h">
      <p>
        <a href={href(['campaigns'])}>← All campaigns</a>
      </p>
      <h1 id="campaign-h">
        {c?.name ?? 'Campaign'} <span className="mono">{id}</span> <Copy text={id} label="campaign id" />
      </h1>
      {typeof got === 'string' && <p className="error">{got}</p>}
      <dl className="facts">
        <dt>Status</dt>
        <dd>
          <Status status={c?.status} /> {c?.endedReason ?? ''}
        </dd>
        <dt>Assistant</dt>
        <dd>{c?.assistantId ? <a href={resourceHref('assistant', c.assistantId)}>{c.assistantId.slice(0, 8)}</a> : '—'}</dd>
        <dt>At most at once</dt>
        <dd>{c?.maxConcurrency ?? 10}</dd>
        <dt>Window</dt>
        <dd>
          {c?.schedulePlan?.earliestAt ? <Time at={c.schedulePlan.earliestAt} /> : 'now'} – {c?.schedulePlan?.latestAt ? <Time at={c.schedulePlan.latestAt} /> : 'until done'}
        </dd>
        <dt>Pre-dial check</dt>
        <dd>{c?.predialPlan ? 'asks the campaign server before each contact' : 'none'}</dd>
        {counters.map(([label, n]) => (
          <Fragment key={label}>
            <dt>Calls {label.toLowerCase()}</dt>
            <dd>{n ?? '—'}</dd>
          </Fragment>
        ))}
      </dl>
      <section aria-labelledby="contacts-h">
        <h2 id="contacts-h">Contacts</h2>
        <div className="table-wrap">
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Call</th>
                <th scope="col">Ended reason</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((x) => (
                <tr key={x.id} className={x.status === 'contact.failed' || x.status === 'contact.predial-failed' ? 'warn' : undefined}>
                  <td className="mono">{x.number}</td>
                  <td>{x.name ?? ''}</td>
                  <td>
                    <Status status={x.status.replace(/^contact\./, '')} />
                  </td>
                  <td>
                    {x.callId ? (
                      <a className="mono" href={href(['calls', x.callId])}>
                        {x.callId.slice(0, 8)}
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>{x.endedReason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          <a href={href(['deliveries'], { call: id })}>What the campaign sent its server</a>
        </p>
      </section>
      {c && (
        <details>
          <summary>Campaign object (JSON)</summary>
          <Json value={c} label="campaign JSON" />
        </details>
      )}
    </article>
  );
}
