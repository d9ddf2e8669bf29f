// Runs one catalogue operation: builds the params from flags, then dry-runs or sends it (asking
// first for destructive ones) and hands the result to the output layer.
import { statSync } from 'node:fs';
import type { Entry } from '#core/catalogue/index';
import { buildRequest } from 'voice-agent-core/client';
import type { ListPromise } from 'voice-agent-core/client';
import { VERSION } from '#core/version';
import { isObject } from '#core/json';
import { splitAssignment } from '../../body.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { checkBinaryTarget, writeBinary } from '../../output/binary.js';
import { curlCommand, showRequest } from '../../output/dry-run.js';
import { pageHint } from '../../output/page-hint.js';
import { loadUi, printData, printJson } from '../../output/print.js';
import { startSpinner } from '../../output/spinner.js';
import { green } from '../../output/style.js';
import { confirmOrRefuse } from '../../prompt.js';
import { buildQuery } from '../../query.js';
import { buildOpBody } from '../../set-body.js';
import { readCustomersCsv, takesCustomersCsv } from './customers-csv.js';
import { addSecretsOf, err, out } from '../../redact.js';

/** Options an operation command may carry. */
interface OpOptions {
  file?: string;
  set?: string[];
  unset?: string[];
  all?: boolean;
  out?: string;
  customersCsv?: string;
}

async function paramsOf(entry: Entry, values: string[], ctx: Context): Promise<unknown> {
  const { op } = entry;
  const opts = ctx.opts as OpOptions & typeof ctx.opts;
  if (op.body === 'json') {
    const body = await buildOpBody(entry, values, opts, () => {
      if (op.auth === 'bearer') ctx.requireKey();
      return ctx.client();
    });
    if (opts.customersCsv === undefined || !takesCustomersCsv(entry)) return body;
    // Read and checked before anything is sent (a dry run included): one bad row refuses the whole file.
    const fields = isObject(body) ? body : {};
    return { ...fields, customers: await readCustomersCsv(opts.customersCsv, typeof fields.squadId === 'string') };
  }
  if (op.body === 'multipart') {
    const file = values.pop() as string;
    try {
      if (!statSync(file).isFile()) throw usageError(`Cannot upload ${file}: not a file`);
    } catch (e) {
      if ((e as { exitCode?: number }).exitCode) throw e;
      throw usageError(`Cannot upload ${file}: no such file`);
    }
    const fields: Record<string, string> = {};
    for (const raw of opts.set ?? []) {
      const [k, v] = splitAssignment(raw, '--set');
      fields[k] = v;
    }
    return { file, ...fields };
  }
  return buildQuery(op, opts);
}

/** Runs an entry with its path values and the context of the command. */
export async function runOp(entry: Entry, values: string[], ctx: Context): Promise<void> {
  const { op } = entry;
  const opts = ctx.opts as OpOptions & typeof ctx.opts;
  const pathValues = [...values];
  const params = await paramsOf(entry, pathValues, ctx);
  // A key or token sent in the body (a credential's apiKey) is never printed back, not even by --dry-run.
  addSecretsOf(params);
  // An operation with a body and query parameters too (structured-output update) sends both.
  const query = op.body !== 'none' && op.query.length ? buildQuery(op, opts) : undefined;
  const label = [entry.action, ...entry.resource, ...pathValues].join(' ');

  if (opts.dryRun) {
    const s = ctx.settings();
    const req = buildRequest({ apiKey: op.auth === 'bearer' ? s.apiKey : undefined, baseUrl: s.baseUrl, userAgent: `voice-cli/${VERSION}` }, op, pathValues, params, query as never);
    const shown = showRequest(req, s.apiKey);
    if (ctx.output.mode === 'json') printJson(shown, ctx.output);
    else out(curlCommand(shown, req.bodyKind));
    return;
  }

  if (op.response === 'binary') checkBinaryTarget(opts.out, [...entry.resource, entry.action].join(' '));
  if (op.auth === 'bearer') ctx.requireKey();
  if (op.method === 'DELETE') await confirmOrRefuse(label, opts);
  const client = ctx.client();
  // A delete on a terminal prints one line; anything else will draw with Ink.
  if (ctx.output.mode === 'ink' && op.method !== 'DELETE' && op.response !== 'binary') void loadUi(ctx.output.color).catch(() => undefined);

  if (opts.all && op.list) {
    const spinner = startSpinner('Fetching every page…', ctx.output.spinner);
    const items: unknown[] = [];
    try {
      for await (const item of client.invoke(op, pathValues, params) as ListPromise<unknown, unknown>) {
        items.push(item);
        spinner.update(`Fetched ${items.length} items…`);
      }
    } finally {
      spinner.stop();
    }
    await printData(items, entry.resource, ctx.output);
    return;
  }

  const spinner = startSpinner(op.body === 'multipart' ? `Uploading ${(params as { file: string }).file}…` : 'Working…', ctx.output.spinner);
  let data: unknown;
  try {
    data = await client.invoke(op, pathValues, params, query ? { query: query as never } : undefined);
  } finally {
    spinner.stop();
  }
  if (op.response === 'binary') return writeBinary(data as Uint8Array, opts.out);
  if (op.method === 'DELETE' && ctx.output.mode !== 'json') {
    err(`${green('✓')} Done: ${label}\n`);
    return;
  }
  await printData(data, entry.resource, ctx.output);
  pageHint(data, ctx.output);
}
