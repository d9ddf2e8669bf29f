// The one place results reach stdout: JSON as the API sent it, plain rows when piped, or Ink
// (loaded only here, only for a terminal) when a person is watching. Secret-named fields the API
// does answer (a webhook credential's token, a server's x-vapi-secret header) read `••••••` in
// every form: output ends up in terminals, CI logs and files (a masked value sent back is refused).
import { maskSecrets } from '#core/emulator/store/mask';
import { err, out } from '../redact.js';
import { itemsOf, plainText, ttyView, viewOf } from './format.js';
import { dim } from './style.js';
import type { View } from './format.js';
import type { Ui } from '../launch/ink-load.js';
import type { OutputSettings } from './mode.js';

/** Writes a value as JSON: pretty on a terminal, compact when piped. */
export function printJson(data: unknown, settings: Pick<OutputSettings, 'pretty'>): void {
  out(`${data === undefined ? 'null' : JSON.stringify(data, null, settings.pretty ? 2 : undefined)}\n`);
}

let ui: Promise<Ui> | undefined;

/**
 * Starts loading Ink and React (once); call it early on the terminal path so loading overlaps
 * the request. Nothing else in the CLI imports them.
 */
export function loadUi(color: boolean): Promise<Ui> {
  if (!ui) {
    if (!color) process.env.FORCE_COLOR = '0';
    ui = import('../launch/ink-load.js').then((m) => m.loadInk());
  }
  return ui;
}

/** Writes a prepared view in the run's mode (JSON callers use printJson). */
export async function printView(view: View, settings: OutputSettings): Promise<void> {
  if (settings.mode !== 'ink') {
    out(plainText(view));
    return;
  }
  if (view.kind === 'text') {
    out(plainText(view));
    return;
  }
  const { renderView } = await loadUi(settings.color);
  out(renderView(ttyView(view), { width: settings.width, wide: settings.wide }));
}

/** Writes an API result: the JSON itself with --json, else a table, key/value view or text; secret-named fields masked. */
export async function printData(answer: unknown, resource: readonly string[], settings: OutputSettings): Promise<void> {
  return printValue(maskSecrets(answer), resource, settings);
}

/** Writes a value the CLI made itself (its secrets already shown as `****cdef`), as printData does. */
export async function printValue(data: unknown, resource: readonly string[], settings: OutputSettings): Promise<void> {
  if (settings.mode === 'json') return printJson(data, settings);
  if (settings.mode === 'ink' && itemsOf(data)?.length === 0) {
    // Nothing on stdout, but a person at a terminal deserves to know the list was empty.
    err(dim(`No ${resource.join(' ') || 'items'} found.\n`));
    return;
  }
  await printView(viewOf(data, resource, settings.columns), settings);
}
