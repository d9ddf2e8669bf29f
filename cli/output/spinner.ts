// A spinner on stderr for slow work (every page with --all, uploads); drawn only on a terminal.
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A running spinner; `stop` clears its line. */
export interface Spinner {
  update(label: string): void;
  stop(): void;
}

const NOOP: Spinner = { update: () => undefined, stop: () => undefined };
let active: Spinner | undefined;

/** Starts a spinner after a short delay (fast work never shows one); a no-op when not enabled. */
export function startSpinner(label: string, enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Spinner {
  if (!enabled) return NOOP;
  let text = label;
  let frame = 0;
  let drawn = false;
  const draw = (): void => {
    drawn = true;
    stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${text}`);
  };
  let timer: NodeJS.Timeout | undefined;
  const delay = setTimeout(() => {
    draw();
    timer = setInterval(draw, 80);
    timer.unref();
  }, 150);
  delay.unref();
  const spinner: Spinner = {
    update: (next) => {
      text = next;
    },
    stop: () => {
      clearTimeout(delay);
      if (timer) clearInterval(timer);
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
      if (active === spinner) active = undefined;
    },
  };
  active = spinner;
  return spinner;
}

/** Stops whatever spinner is running (on Ctrl-C or a failure). */
export function stopSpinner(): void {
  active?.stop();
}
