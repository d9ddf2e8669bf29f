// The hint under one page of a paginated list on a terminal: which page it was and how to get
// more. Shared by the catalogue commands (run-op.ts) and the fast lane (cli/launch/lane-read.ts).
import { err } from '../redact.js';
import type { OutputSettings } from './mode.js';
import { dim } from './style.js';

/** Writes "Page N of M (K items). More: ..." on stderr when a person sees one page of several. */
export function pageHint(data: unknown, output: Pick<OutputSettings, 'mode'>): void {
  const meta = (data as { metadata?: { currentPage?: number; totalPages?: number; totalItems?: number } } | null)?.metadata;
  if (output.mode !== 'ink' || !meta || typeof meta.totalPages !== 'number' || (meta.currentPage ?? 1) >= meta.totalPages) return;
  const page = meta.currentPage ?? 1;
  err(dim(`Page ${page} of ${meta.totalPages}${meta.totalItems !== undefined ? ` (${meta.totalItems} items)` : ''}. More: --page ${page + 1}, or --all.\n`));
}
