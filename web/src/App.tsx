// The demo page: Loading, then Main (greeting, Call Me, Test in Browser) or Not found.
import { lazy, Suspense, useEffect, useState } from 'react';
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

function FormUnavailable(_props: { webhookUrl: string; slug: string }) {
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
  const callLabel = call.state === 'connecting' ? text.connecting : call.state === 'active' ? text.stopCall : text.testInBrowser;
  const prefetchForm = () => void loadPhoneForm().catch(() => undefined);
  const prefetchCall = call.prefetch;

  return (
    <>
      <main className="page">
        <h1>{text.greeting(visitor.name)}</h1>
        <p className="pitch">{text.pitch}</p>
        <p>{text.description}</p>
        <p className="choose">{text.choose}</p>
        <div className="actions">
          <button type="button" className={formOpen ? 'open' : undefined} aria-expanded={formOpen} onClick={() => setFormOpen((open) => !open)} onPointerEnter={prefetchForm} onFocus={prefetchForm}>
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
        {config.captions && (
          // Always in the page (fixed height) so lines appear without moving anything, and
          // screen readers announce each new line of the live region.
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
            <PhoneForm webhookUrl={config.webhookUrl} slug={visitor.slug} />
          </Suspense>
        )}
        {call.message && (
          <p className="error" role="alert">
            {call.message}
          </p>
        )}
      </main>
      <Footer links={config.links} />
      {call.engine}
    </>
  );
}

const LINKS = [
  ['linkedin', 'LinkedIn'],
  ['website', 'Website'],
  ['twitter', 'Twitter'],
] as const;

function Footer({ links }: { links: DemoConfig['links'] }) {
  // Only web addresses: a configured `javascript:` URL must never become a link.
  const shown = LINKS.filter(([key]) => /^https?:\/\//i.test(links[key]));
  if (shown.length === 0) return null;
  return (
    <footer>
      {shown.map(([key, label]) => (
        <a key={key} href={links[key]} target="_blank" rel="noopener noreferrer">
          {label}
        </a>
      ))}
    </footer>
  );
}
