// What the emulator holds, by type, through its REST API; start a call from an assistant and ring
// a phone number (the same endpoints `voice call create` and `voice dev ring` use).
import { CONTROL_PATHS } from '#core/emulator/control/paths';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { api, keyVersion, onKeyChange } from './api';
import { useLive } from './live';
import type { ApiCall } from './live';
import { href } from './route';
import { Copy, Json, Time } from './ui';

const TYPES = ['assistant', 'tool', 'squad', 'workflow', 'phone-number', 'credential', 'file', 'knowledge-base', 'template'] as const;

type Obj = { id: string; name?: string; createdAt?: string; number?: string } & Record<string, unknown>;

function useFetch<T>(path: string): { data?: T; error?: string } {
  const [state, setState] = useState<{ path: string; data?: T; error?: string }>({ path });
  const key = useSyncExternalStore(onKeyChange, keyVersion);
  useEffect(() => {
    let on = true;
    api<T>(path).then(
      (data) => on && setState({ path, data }),
      (e: Error) => on && setState({ path, error: e.message }),
    );
    return () => {
      on = false;
    };
  }, [path, key]);
  return state.path === path ? state : {};
}

interface CallFormProps {
  /** The input's id and its label. */
  field: string;
  label: string;
  initial: string;
  submit: string;
  /** Places the call for the number typed. */
  place: (number: string) => Promise<ApiCall>;
}

/** A one-number form that places a call and opens it (or shows why it could not). */
function CallForm({ field, label, initial, submit, place }: CallFormProps) {
  const [number, setNumber] = useState(initial);
  const [note, setNote] = useState('');
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        setNote('');
        place(number).then(
          (c) => (location.hash = href(['calls', c.id])),
          (err: Error) => setNote(err.message),
        );
      }}
    >
      <label htmlFor={field}>{label}</label>
      <input id={field} value={number} onChange={(e) => setNumber(e.target.value)} inputMode="tel" />
      <button type="submit">{submit}</button>
      <span role="status" className="error">
        {note}
      </span>
    </form>
  );
}

function StartCall({ assistantId }: { assistantId: string }) {
  const place = (number: string) => api<ApiCall>('/call', { method: 'POST', body: { assistantId, customer: { number } } });
  return <CallForm field="customer" label="Customer number" initial="+14155550100" submit="Start a call" place={place} />;
}

function Ring({ phoneNumberId }: { phoneNumberId: string }) {
  const place = (from: string) => api<ApiCall>(CONTROL_PATHS.ring, { method: 'POST', body: { phoneNumberId, from } });
  return <CallForm field="from" label="Caller number" initial="+14155550123" submit="Ring this number" place={place} />;
}

/** The calls this assistant or phone number took part in (from the page's live list). */
function CallsOf({ field, id }: { field: 'assistantId' | 'phoneNumberId'; id: string }) {
  const live = useLive();
  const ids = live.order.filter((c) => live.calls.get(c)?.call?.[field] === id).slice(0, 20);
  if (!ids.length) return null;
  return (
    <p>
      Calls:{' '}
      {ids.map((c) => (
        <a key={c} href={href(['calls', c])} className="mono gap">
          {c.slice(0, 8)}
        </a>
      ))}
    </p>
  );
}

function One({ type, id }: { type: string; id: string }) {
  const { data, error } = useFetch<Obj>(`/${type}/${encodeURIComponent(id)}`);
  if (error) return <p className="error">{error}</p>;
  if (!data) return <p className="muted">Loading…</p>;
  return (
    <div>
      <h2>
        {data.name ?? data.number ?? type} <span className="mono muted">{id}</span> <Copy text={id} label={`${type} id`} />
      </h2>
      {type === 'assistant' && <StartCall assistantId={id} />}
      {type === 'phone-number' && <Ring phoneNumberId={id} />}
      {type === 'assistant' && <CallsOf field="assistantId" id={id} />}
      {type === 'phone-number' && <CallsOf field="phoneNumberId" id={id} />}
      <Json value={data} label={`${type} JSON`} />
    </div>
  );
}

/** Browse resources by type. */
export function Resources({ type, id }: { type: string; id: string | undefined }) {
  const { data, error } = useFetch<Obj[]>(`/${type}?limit=100`);
  return (
    <section aria-labelledby="res-h">
      <h1 id="res-h">Resources</h1>
      <nav aria-label="Resource types" className="types">
        {TYPES.map((t) => (
          <a key={t} href={href(['resources', t])} aria-current={t === type ? 'page' : undefined}>
            {t}
          </a>
        ))}
      </nav>
      <div className="split">
        <ul className="names" aria-label={`${type} list`}>
          {error && <li className="error">{error}</li>}
          {data?.map((o) => (
            <li key={o.id}>
              <a href={href(['resources', type, o.id])} aria-current={o.id === id ? 'true' : undefined}>
                {o.name ?? o.number ?? o.id.slice(0, 8)}
              </a>{' '}
              <Time at={o.createdAt} />
            </li>
          ))}
          {data && !data.length && <li className="muted">None.</li>}
        </ul>
        <div>{id ? <One type={type} id={id} /> : <p className="muted">Pick one to see its JSON.</p>}</div>
      </div>
    </section>
  );
}
