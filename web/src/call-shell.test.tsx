// The first-load shell of Test in Browser (call-shell.tsx) with a stand-in engine, rendered by Ink's
// React reconciler (it runs effects in Node): a press before the engine is there waits for it and
// is made once, and a press after goes straight to it (an engine that cannot load:
// call-shell-unavailable.test.tsx; the real engine runs in Chromium: web/e2e/demo-browser-call.test.ts).
import { render } from 'ink-testing-library';
import { useLayoutEffect, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineProps } from './CallEngine.js';
import { defaultConfig } from './config.js';
import type { useCallShell as UseCallShell } from './call-shell.js';

// Lets pending renders run; only for checking that something did NOT happen (positive checks wait with `until`).
const settle = async () => {
  for (let i = 0; i < 40; i++) await new Promise((resolve) => setTimeout(resolve, 10));
};
/** Waits for a check to pass (renders and lazy imports land later on a busy machine). */
const until = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 10 });

const visitor = { name: 'Acme', system: '', first_message: '', slug: 'acme' };
const presses: string[] = [];

/** A stand-in engine: each press flips connecting/idle and is recorded. */
function FakeEngine({ register, takePending, onView }: EngineProps) {
  const [busy, setBusy] = useState(false);
  useLayoutEffect(() => {
    const toggle = () => {
      presses.push(busy ? 'stop' : 'start');
      setBusy(!busy);
    };
    register(toggle);
    if (takePending()) toggle();
  }, [register, takePending, busy]);
  useLayoutEffect(() => onView({ state: busy ? 'connecting' : 'idle', message: '', client: null }), [onView, busy]);
  return null;
}

vi.mock('./CallEngine.js', async () => {
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { default: FakeEngine, prefetchWebCall: () => undefined };
});

afterEach(() => {
  presses.length = 0;
  vi.restoreAllMocks();
});

/** The shell over the engine the file mocks. */
async function mount() {
  const { useCallShell } = (await import('./call-shell.js')) as { useCallShell: typeof UseCallShell };
  let shell: ReturnType<typeof UseCallShell> | undefined;
  const keep = (current: ReturnType<typeof UseCallShell>) => void (shell = current);
  function Probe() {
    const current = useCallShell(defaultConfig, visitor);
    keep(current);
    return <>{current.engine}</>;
  }
  const app = render(<Probe />);
  return { read: () => shell as ReturnType<typeof UseCallShell>, app };
}

describe('useCallShell', () => {
  it('a press before the engine is there shows Connecting... and is made once when it mounts', async () => {
    const { read, app } = await mount();
    expect(read().state).toBe('idle');
    expect(read().engine).toBeFalsy();
    read().toggle();
    await until(() => expect(presses).toEqual(['start']));
    await until(() => expect(read().state).toBe('connecting'));
    read().toggle();
    await until(() => expect(presses).toEqual(['start', 'stop']));
    await until(() => expect(read().state).toBe('idle'));
    app.unmount();
  });

  it('hover or focus loads the engine; a press then goes straight to it', async () => {
    const { read, app } = await mount();
    read().prefetch();
    await settle();
    expect(presses).toEqual([]);
    read().toggle();
    await until(() => expect(presses).toEqual(['start']));
    await until(() => expect(read().state).toBe('connecting'));
    app.unmount();
  });
});
