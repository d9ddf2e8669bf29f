// The demo page: Loading, then Main (greeting, Call Me, Test in Browser) or Not found.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { MeterProps } from './CallMeter.js';
import type { LocalNoteProps } from './LocalNote.js';
import type { DemoConfig } from './config.js';
import { text } from './messages.js';
import { useCallShell } from './call-shell.js';
import { loadVisitor, type Visitor } from './visitor.js';

const loadPhoneForm = () => import('./PhoneForm.js');
// A chunk that cannot be fetched (a dropped connection) says so in place instead of taking the
// page down with it: a lazy component's rejection would unmount the whole page.
const PhoneForm = lazy(() => loadPhoneForm().catch(() => ({ default: FormUnavailable })));
// The captions' lines load with the first call: nothing of them in the first load (and none without them).
const Captions = lazy(() => import('./Captions.js').catch(() => ({ default: (_props: { client: unknown }) => <></> })));
// The live call's timer, microphone level and listening/speaking state, loaded with the first call too.
const CallMeter = lazy(() => import('./CallMeter.js').catch(() => ({ default: (_props: MeterProps) => <></> })));
// Where a browser call on the local platform runs (never on a hosted page), loaded with that call.
const LocalNote = lazy(() => import('./LocalNote.js').catch(() => ({ default: (_props: LocalNoteProps) => <></> })));

function FormUnavailable(_props: { webhookUrl: string; slug: string; local?: boolean; onClose(): void }) {
  return (
    <p className="error" role="alert">
      {text.formUnavailable}
    </p>
  );
}

// One lookup per slug for the page's lifetime: StrictMode's second effect run reuses it.
const lookups = new Map<string, ReturnType<typeof loadVisitor>>();
function lookupOnce(slug: string, config: DemoConfig): ReturnType<typeof loadVisitor> {
  let pending = lookups.get(slug);
  if (!pending) lookups.set(slug, (pending = loadVisitor(slug, config)));
  return pending;
}

type Screen = { kind: 'loading' } | { kind: 'main'; visitor: Visitor } | { kind: 'not-found' };

/** The whole page for one slug. */
export default function App({ config, slug }: { config: DemoConfig; slug: string }) {
  const [screen, setScreen] = useState<Screen>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    void lookupOnce(slug, config).then(({ visitor, status }) => {
      if (!live) return;
      setScreen(config.strict && status === 'missing' ? { kind: 'not-found' } : { kind: 'main', visitor });
    });
    return () => {
      live = false;
    };
  }, [slug, config]);

  useEffect(() => {
    if (screen.kind === 'main') document.title = text.title(screen.visitor.name);
    if (screen.kind === 'not-found') document.title = text.notFoundTitle;
  }, [screen]);

  if (screen.kind === 'loading') return <p className="loading">{text.loading}</p>;
  if (screen.kind === 'not-found') return <NotFound />;
  return <Main config={config} visitor={screen.visitor} />;
}

function NotFound() {
  return (
    <main className="page">
      <h1>{text.notFoundTitle}</h1>
      <p>{text.notFoundText}</p>
      <a href="/">{text.goBack}</a>
    </main>
  );
}

function Main({ config, visitor }: { config: DemoConfig; visitor: Visitor }) {
  const [formOpen, setFormOpen] = useState(false);
  const call = useCallShell(config, visitor);
  // What the call is doing in words ("Listening", "Call ended after 0:42"), announced by screen readers.
  const [status, setStatus] = useState('');
  const callMeButton = useRef<HTMLButtonElement>(null);
  const toggleForm = () => setFormOpen((open) => !open);
  // Closing the form from inside it (Escape) gives focus back to the button that opened it.
  const closeForm = useCallback(() => {
    setFormOpen(false);
    callMeButton.current?.focus();
  }, []);
  const callLabel = call.state === 'connecting' ? text.connecting : call.state === 'active' ? text.stopCall : text.testInBrowser;
  const prefetchForm = () => void loadPhoneForm().catch(() => undefined);
  const prefetchCall = call.prefetch;

  return (
    <>
      <Seller seller={config.seller} />
      <main className="page">
        <h1>{text.greeting(visitor.name)}</h1>
        <p className="pitch">{text.pitch}</p>
        <p>{text.description}</p>
        <p className="choose">{text.choose}</p>
        <div className="actions">
          <button ref={callMeButton} type="button" className={formOpen ? 'open' : undefined} aria-expanded={formOpen} onClick={toggleForm} onPointerEnter={prefetchForm} onFocus={prefetchForm}>
            {text.callMe}
          </button>
          <button
            type="button"
            className={call.state === 'active' ? 'stop' : undefined}
            aria-busy={call.state === 'connecting'}
            onClick={call.toggle}
            onPointerEnter={prefetchCall}
            onFocus={prefetchCall}
          >
            {callLabel}
          </button>
        </div>
        <div className={call.state === 'active' || status ? 'live on' : 'live'}>
          {call.client && (
            <Suspense fallback={null}>
              <CallMeter client={call.client} active={call.state === 'active'} onStatus={setStatus} />
            </Suspense>
          )}
          {/* Always in the page (no height while empty) so screen readers announce each change. */}
          <p className="call-state" role="status">
            {status}
          </p>
        </div>
        {config.captions && (
          // Always in the page (no height while empty) so screen readers announce each new line.
          <div className="captions" role="log" aria-live="polite" aria-label={text.captionsLabel}>
            {call.client && (
              <Suspense fallback={null}>
                <Captions client={call.client} />
              </Suspense>
            )}
          </div>
        )}
        {formOpen && (
          <Suspense fallback={<p className="loading">{text.loading}</p>}>
            <PhoneForm webhookUrl={config.webhookUrl} slug={visitor.slug} local={config.localPlatform} onClose={closeForm} />
          </Suspense>
        )}
        {call.message && (
          <p className="error" role="alert">
            {call.message}
          </p>
        )}
        {call.note && (
          <Suspense fallback={null}>
            <LocalNote info={call.note.info} kind="browser" {...(call.note.callId ? { callId: call.note.callId } : {})} />
          </Suspense>
        )}
      </main>
      <Footer seller={config.seller} links={config.links} />
      {call.engine}
    </>
  );
}

const LINKS = [
  ['linkedin', 'LinkedIn'],
  ['website', 'Website'],
  ['twitter', 'Twitter'],
] as const;

/** Who is selling, above everything else: their logo and name. */
function Seller({ seller }: { seller: DemoConfig['seller'] }) {
  return (
    <header className="seller">
      {/* The name beside it says who it is: the image itself is decoration. */}
      <img src={seller.logo} alt="" width="32" height="32" />
      <span>{seller.name}</span>
    </header>
  );
}

function Footer({ seller, links }: { seller: DemoConfig['seller']; links: DemoConfig['links'] }) {
  // Only web addresses: a configured `javascript:` URL must never become a link.
  const shown = LINKS.filter(([key]) => /^https?:\/\//i.test(links[key]));
  return (
    <footer>
      <span className="by">{seller.name}</span>
      {shown.map(([key, label]) => (
        <a key={key} href={links[key]} target="_blank" rel="noopener noreferrer">
          {label}
        </a>
      ))}
    </footer>
  );
}
