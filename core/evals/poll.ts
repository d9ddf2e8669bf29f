// How `voice test` waits while runs go on: for the platform's next change when it signals one
// (an in-process platform), or for the poll interval at most.
/** Resolves after ms, or at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((ok) => {
    const t = setTimeout(ok, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        ok();
      },
      { once: true },
    );
  });
}

/** Waits for the next change the platform signals, or pollMs at most. */
export function pause(pollMs: number, change: Promise<void> | undefined, signal?: AbortSignal): Promise<void> {
  const slept = sleep(pollMs, signal);
  return change ? Promise.race([change, slept]) : slept;
}
