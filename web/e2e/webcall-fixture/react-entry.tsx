// Browser entry for the StrictMode test: a React root in StrictMode whose component starts a web
// call from an effect with voice/react's useWebCall(), as an app that calls on mount would.
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { useWebCall } from 'voice-agent-core/react';

declare global {
  interface Window {
    mountCall(baseUrl: string): void;
    unmountCall(): void;
    hookState: { state: string; listening: boolean; volume: number; transcript: string; effects: number };
  }
}

window.hookState = { state: 'idle', listening: false, volume: 0, transcript: '', effects: 0 };

function CallOnMount({ baseUrl }: { baseUrl: string }) {
  const call = useWebCall('public-key', { baseUrl });
  const { start, state, listening, volume, transcript } = call;
  useEffect(() => {
    window.hookState.effects++;
    void start({ name: 'StrictMode assistant', firstMessage: 'Hello from StrictMode' });
  }, [start]);
  useEffect(() => {
    Object.assign(window.hookState, { state, listening, volume: Math.max(window.hookState.volume, volume), transcript: transcript?.text ?? window.hookState.transcript });
  });
  return <p>{state}</p>;
}

let root: Root | null = null;
window.mountCall = (baseUrl) => {
  const element = document.createElement('div');
  document.body.appendChild(element);
  root = createRoot(element);
  root.render(
    <StrictMode>
      <CallOnMount baseUrl={baseUrl} />
    </StrictMode>,
  );
};
window.unmountCall = () => root?.unmount();
