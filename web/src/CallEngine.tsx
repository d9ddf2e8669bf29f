// The "Test in Browser" call itself: useBrowserCall() (over voice/react's useWebCall) in a component
// that renders nothing. call-shell.tsx loads it when the button is about to be used and shows what
// it reports, so the first load carries only the shell. A press made before it was there is made
// when it mounts.
import { useLayoutEffect } from 'react';
import type { DemoConfig } from './config.js';
import { useBrowserCall, type CallView } from './useBrowserCall.js';
import type { Visitor } from './visitor.js';

export { prefetchWebCall } from './useBrowserCall.js';

/** What the shell gives the engine. */
export interface EngineProps {
  config: DemoConfig;
  visitor: Visitor;
  /** Gives the shell the engine's press (null when the engine goes). */
  register(toggle: (() => void) | null): void;
  /** True once if the button was pressed before the engine was there. */
  takePending(): boolean;
  onView(view: CallView): void;
}

/** Runs the call for the visitor and reports what the button, captions and message show. */
export default function CallEngine({ config, visitor, register, takePending, onView }: EngineProps) {
  const { toggle, state, message, client, note } = useBrowserCall(config, visitor);
  // Layout effects: a pending press starts before the page paints again, so the button never
  // flashes back to idle between the shell's press and the engine's.
  useLayoutEffect(() => {
    register(() => void toggle());
    if (takePending()) void toggle();
  }, [register, takePending, toggle]);
  useLayoutEffect(() => () => register(null), [register]);
  useLayoutEffect(() => onView({ state, message, client, note }), [onView, state, message, client, note]);
  return null;
}
