// The inspector: calls, deliveries, requests and resources of the `voice dev` it is served by, live.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { keyNeeded, onKeyChange, setKey } from './api';
import { CallView } from './CallView';
import { Calls } from './Calls';
import { CampaignView, Campaigns } from './Campaigns';
import { ChatView, Chats } from './Chats';
import { Deliveries } from './Deliveries';
import { live, useLive } from './live';
import { Requests } from './Requests';
import { Resources } from './Resources';
import { href, useRoute } from './route';

const TABS = [
  ['calls', 'Calls'],
  ['chats', 'Chats'],
  ['campaigns', 'Campaigns'],
  ['deliveries', 'Deliveries'],
  ['requests', 'Requests'],
  ['resources', 'Resources'],
] as const;

function KeyPrompt() {
  const needed = useSyncExternalStore(onKeyChange, keyNeeded);
  const [value, setValue] = useState('');
  if (!needed) return null;
  return (
    <form
      className="keyprompt"
      onSubmit={(e) => {
        e.preventDefault();
        setKey(value);
        setValue('');
        void live.loadCalls();
      }}
    >
      <label htmlFor="key">This emulator was started with --api-key. Enter it to see and change its objects (kept in this tab only, never shown):</label>
      <input id="key" type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="submit">Use key</button>
    </form>
  );
}

/** The whole page. */
export function App() {
  const route = useRoute();
  const state = useLive();
  const tab = route.parts[0] ?? 'calls';
  useEffect(() => {
    document.title = `${TABS.find(([t]) => t === tab)?.[1] ?? 'Calls'} · voice dev inspector`;
  }, [tab]);
  let view;
  if (tab === 'calls' && route.parts[1]) view = <CallView id={route.parts[1]} />;
  else if (tab === 'campaigns') view = route.parts[1] ? <CampaignView id={route.parts[1]} /> : <Campaigns />;
  else if (tab === 'chats') view = route.parts[1] ? <ChatView id={route.parts[1]} /> : <Chats />;
  else if (tab === 'deliveries') view = <Deliveries query={route.query} />;
  else if (tab === 'requests') view = <Requests selected={route.parts[1]} />;
  else if (tab === 'resources') view = <Resources type={route.parts[1] ?? 'assistant'} id={route.parts[2]} />;
  else view = <Calls />;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span className="brand">voice dev · Inspector</span>
        <nav aria-label="Views">
          {TABS.map(([t, label]) => (
            <a key={t} href={href([t])} aria-current={t === tab ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span className={`conn ${state.connected ? 'on' : 'off'}`} role="status">
          {state.connected ? 'Live' : state.everConnected ? 'Reconnecting…' : 'Connecting…'}
        </span>
      </header>
      <p className="clock">
        Times are in your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}). Call times (started, ended, durations) follow the emulator's simulated clock
        {state.info ? `, running at ${state.info.speed}x` : ''}; event times are real.
      </p>
      <KeyPrompt />
      <main id="main" tabIndex={-1}>
        {view}
      </main>
    </>
  );
}
