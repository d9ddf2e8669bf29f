// "Test in Browser" in the page's first load: the press, and what the button, the captions and the
// message show. The call itself is CallEngine.tsx, imported when the pointer or focus reaches the
// button or on the press (like the phone form): nothing of voice/react, the call's state machine or
// the web-call client is in the first load.
import { lazy, Suspense, useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { EngineProps } from './CallEngine.js';
import type { DemoConfig } from './config.js';
import type { CallView } from './useBrowserCall.js';
import type { Visitor } from './visitor.js';

const IDLE: CallView = { state: 'idle', message: '', client: null };
const loadEngine = () => import('./CallEngine.js');

/** Stands in when the engine cannot load: a press is logged as a failed start, and the button stays idle. */
function unavailable(error: unknown) {
  return function Unavailable({ register, takePending, onView }: EngineProps) {
    useLayoutEffect(() => {
      const fail = () => console.error('Browser call failed:', error);
      register(fail);
      if (takePending()) fail();
      onView(IDLE);
    }, [register, takePending, onView]);
    return null;
  };
}

const Engine = lazy(() => loadEngine().catch((error: unknown) => ({ default: unavailable(error) })));

/** The call as the page shows it; `engine` must be rendered for the call to run (nothing until wanted). */
export function useCallShell(config: DemoConfig, visitor: Visitor): CallView & { toggle(): void; prefetch(): void; engine: ReactNode } {
  const [view, setView] = useState<CallView>(IDLE);
  const [wanted, setWanted] = useState(false);
  const engineToggle = useRef<(() => void) | null>(null);
  const pending = useRef(false);
  const register = useCallback((toggle: (() => void) | null) => void (engineToggle.current = toggle), []);
  const takePending = useCallback(() => {
    const was = pending.current;
    pending.current = false;
    return was;
  }, []);
  // Before the engine is there, the press waits for it (the button says Connecting... meanwhile).
  const toggle = useCallback(() => {
    if (engineToggle.current) return engineToggle.current();
    pending.current = true;
    setWanted(true);
    setView((now) => ({ ...now, state: 'connecting', message: '' }));
  }, []);
  const local = config.localCalls;
  const prefetch = useCallback(() => {
    setWanted(true);
    void loadEngine().then(
      (m) => m.prefetchWebCall(local),
      () => undefined,
    );
  }, [local]);
  const engine = wanted && (
    <Suspense fallback={null}>
      <Engine config={config} visitor={visitor} register={register} takePending={takePending} onView={setView} />
    </Suspense>
  );
  return { ...view, toggle, prefetch, engine };
}
