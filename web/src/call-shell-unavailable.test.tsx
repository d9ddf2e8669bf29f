// The first-load shell of Test in Browser (call-shell.tsx) when the engine's chunk cannot load
// (a network failure): no crash, the press is logged as a failed start and the button stays idle.
import { render } from 'ink-testing-library';
import { afterEach, expect, it, vi } from 'vitest';
import { useCallShell } from './call-shell.js';
import { defaultConfig } from './config.js';

vi.mock('./CallEngine.js', async () => {
  await new Promise((resolve) => setTimeout(resolve, 20));
  throw new Error('chunk failed to load');
});

afterEach(() => vi.restoreAllMocks());

/** Waits for a check to pass (the failed lazy import lands later on a busy machine). */
const until = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 10 });

it('an engine that cannot load: the press is logged as a failed start and the button goes back to idle', async () => {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  let shell: ReturnType<typeof useCallShell> | undefined;
  const keep = (current: ReturnType<typeof useCallShell>) => void (shell = current);
  function Probe() {
    const current = useCallShell(defaultConfig, { name: 'Acme', system: '', first_message: '', slug: 'acme' });
    keep(current);
    return <>{current.engine}</>;
  }
  const app = render(<Probe />);
  const read = () => shell as ReturnType<typeof useCallShell>;
  read().toggle();
  await until(() => expect(errors.mock.calls.filter(([first]) => first === 'Browser call failed:')).toHaveLength(1));
  await until(() => expect(read().state).toBe('idle'));
  read().toggle();
  expect(errors.mock.calls.filter(([first]) => first === 'Browser call failed:')).toHaveLength(2);
  expect(read().state).toBe('idle');
  app.unmount();
});
