// Small shared pieces: local times, copy buttons, status badges, and a JSON view that masks
// secrets and links ids to the objects they name.
import { useState } from 'react';
import type { ReactNode } from 'react';
import { maskSecrets } from '#core/emulator/store/mask';
import { href } from './route';

/** Hours, minutes and seconds in the browser's time zone (one formatter: making one per call is slow). */
const clockTime = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });

/** A wall-clock time in the browser's time zone, with the full date on hover. */
export function Time({ at }: { at: string | undefined }) {
  if (!at) return <span>—</span>;
  const d = new Date(at);
  return (
    <time dateTime={at} title={d.toLocaleString()}>
      {clockTime.format(d)}.{String(d.getMilliseconds()).padStart(3, '0')}
    </time>
  );
}

/** A button that copies `text` and says so. */
export function Copy({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="copy"
      aria-label={`Copy ${label}`}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setDone(true);
          setTimeout(() => setDone(false), 1200);
        });
      }}
    >
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}

/** A call status as a coloured badge. */
export function Status({ status }: { status: string | undefined }) {
  return <span className={`badge s-${status ?? 'unknown'}`}>{status ?? '…'}</span>;
}

/** Seconds between two times as `1m 05s`. */
export function duration(from: string | undefined, to: string | undefined): string {
  if (!from) return '—';
  if (!to) return 'running';
  const s = Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m ${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(1)} s`;
}

/** Which resource an id field names. */
const ID_FIELDS: Record<string, string> = {
  assistantId: 'assistant',
  squadId: 'squad',
  workflowId: 'workflow',
  phoneNumberId: 'phone-number',
  toolId: 'tool',
  toolIds: 'tool',
  credentialId: 'credential',
  fileId: 'file',
  fileIds: 'file',
  knowledgeBaseId: 'knowledge-base',
  callId: 'call',
};

/** Where an id of a resource type is shown. */
export function resourceHref(type: string, id: string): string {
  return type === 'call' ? href(['calls', id]) : href(['resources', type, id]);
}

function render(value: unknown, key: string | undefined, indent: string): ReactNode {
  if (typeof value === 'string') {
    const type = key ? ID_FIELDS[key] : undefined;
    const text = JSON.stringify(value);
    return type ? <a href={resourceHref(type, value)}>{text}</a> : <span className="j-str">{text}</span>;
  }
  if (value === null || typeof value !== 'object') return <span className="j-lit">{String(value)}</span>;
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (!value.length) return '[]';
    return (
      <>
        {'[\n'}
        {value.map((v, i) => (
          <span key={i}>
            {inner}
            {render(v, key, inner)}
            {i < value.length - 1 ? ',\n' : '\n'}
          </span>
        ))}
        {indent + ']'}
      </>
    );
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (!entries.length) return '{}';
  return (
    <>
      {'{\n'}
      {entries.map(([k, v], i) => (
        <span key={k}>
          {inner}
          <span className="j-key">{JSON.stringify(k)}</span>: {render(v, k, inner)}
          {i < entries.length - 1 ? ',\n' : '\n'}
        </span>
      ))}
      {indent + '}'}
    </>
  );
}

/** Pretty JSON with secrets masked, id links and a copy button. */
export function Json({ value, label }: { value: unknown; label: string }) {
  const masked = maskSecrets(value);
  if (masked === undefined) return <p className="muted">(empty)</p>;
  return (
    <div className="json">
      <Copy text={typeof masked === 'string' ? masked : JSON.stringify(masked, null, 2)} label={label} />
      <pre tabIndex={0} aria-label={label}>
        {typeof masked === 'string' ? masked : render(masked, undefined, '')}
      </pre>
    </div>
  );
}

/** Shows the first `step` items and a "Load more" button (an hour of calls stays fast). */
export function useCap(step = 100): [number, () => void] {
  const [shown, setShown] = useState(step);
  return [shown, () => setShown((n) => n + step)];
}

/** The "Load more" button under a capped list. */
export function More({ shown, total, more }: { shown: number; total: number; more: () => void }) {
  if (total <= shown) return null;
  return (
    <button type="button" className="more" onClick={more}>
      Load more ({total - shown} older)
    </button>
  );
}
