// `voice visitor`: manage the prospects who get a personalised demo page, in the local visitors
// file or the hosted table. Thin: parse flags, call the store, pick an output.
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { contextOf } from '../../context.js';
import type { Context as CliContext } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { printJson, printView } from '../../output/print.js';
import { confirmOrRefuse } from '../../prompt.js';
import { addSecret, err, out } from '../../redact.js';
import { checkSlug, pageUrl, parseVisitorList } from '#core/visitors/index';
import type { Visitor, VisitorPatch, VisitorStore } from '#core/visitors/index';
import { DEFAULT_DEMO_URL, openVisitorStore, resolveVisitorSettings, toCliError } from './store.js';
import type { StoreFlags, VisitorSettings } from './store.js';

interface CommonFlags extends StoreFlags {
  json?: boolean;
  yes?: boolean;
  input?: boolean;
}
interface FieldFlags extends CommonFlags {
  name?: string;
  system?: string;
  firstMessage?: string;
  file?: string;
}

interface Context {
  store: VisitorStore;
  settings: VisitorSettings;
  flags: CommonFlags;
  cli: CliContext;
}

function say(line: string): void {
  err(`${line}\n`);
}

function common(cmd: Command): Command {
  return cmd
    .option('--visitors <file>', 'local visitors file (default ./visitors.json, or VOICE_VISITORS_FILE)')
    .option('--local', 'use the local file even when the hosted table is configured')
    .option('--json', 'print exact JSON');
}

function withYes(cmd: Command): Command {
  return cmd.option('-y, --yes', 'do not ask for confirmation');
}

function fields(cmd: Command, verb: string): Command {
  return cmd
    .option('--name <name>', `name the page greets (${verb})`)
    .option('--system <prompt>', `system prompt for the assistant (${verb})`)
    .option('--first-message <text>', `opening line the assistant speaks (${verb})`)
    .option('-f, --file <file>', 'JSON file (or - for stdin) with one visitor object or an array');
}

/** Runs an action with the chosen store, turning visitor failures into CLI errors. */
function action<A extends unknown[]>(run: (ctx: Context, ...args: A) => Promise<void>) {
  return async (...args: unknown[]): Promise<void> => {
    const cmd = args[args.length - 1] as Command;
    const cli = contextOf(cmd);
    const flags = cli.opts as CommonFlags;
    try {
      const settings = resolveVisitorSettings(flags);
      addSecret(settings.serviceRoleKey);
      const store = await openVisitorStore(settings, flags, say);
      await run({ store, settings, flags, cli }, ...(args.slice(0, cmd.registeredArguments.length) as A));
    } catch (err) {
      throw toCliError(err);
    }
  };
}

function where(store: VisitorStore): string {
  return store.hosted ? `the hosted table at ${store.location}` : store.location;
}

async function readInput(file: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (err) {
    throw usageError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw usageError(`${file === '-' ? 'stdin' : file} is not valid JSON (${(err as Error).message}).`);
  }
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

/** Visitors from `-f FILE`, or the one visitor the slug and flags describe. */
async function gather(slug: string | undefined, flags: FieldFlags, partial: boolean): Promise<Array<Visitor | VisitorPatch>> {
  const given = { name: flags.name, system: flags.system, first_message: flags.firstMessage };
  const anyField = Object.values(given).some((v) => v !== undefined);
  if (flags.file) {
    if (slug || anyField) throw usageError('Give either -f FILE or a slug with --name/--system/--first-message, not both.');
    const value = await readInput(flags.file);
    const where = flags.file === '-' ? 'stdin' : flags.file;
    return partial ? parseVisitorList(value, true, where) : parseVisitorList(value, false, where);
  }
  const verb = partial ? 'update' : 'create';
  if (!slug) throw usageError(`Missing the slug of the visitor to ${verb}.`, `Example: voice visitor ${verb} acme --name "Acme Corp"${partial ? '' : ' --system "..." --first-message "..."'}`);
  checkSlug(slug);
  if (partial) {
    if (!anyField) throw usageError(`Nothing to update for ${slug}.`, 'Give at least one of --name, --system, --first-message.');
  } else {
    const missing = (['name', 'system', 'first_message'] as const).filter((k) => given[k] === undefined);
    if (missing.length > 0) throw usageError(`Missing ${missing.map((k) => `--${k.replace('_', '-')}`).join(', ')} for ${slug}.`, 'Or give them all in a file: -f visitors.json');
  }
  const value = Object.fromEntries(Object.entries({ slug, ...given }).filter(([, v]) => v !== undefined));
  return partial ? parseVisitorList(value, true, 'flags') : parseVisitorList(value, false, 'flags');
}

function printChanged(ctx: Context, visitors: Visitor[], many: boolean, verb: string): void {
  const withUrl = visitors.map((v) => ({ ...v, url: pageUrl(ctx.settings.demoUrl, v.slug) }));
  if (ctx.cli.output.mode === 'json') printJson(many ? withUrl : withUrl[0], ctx.cli.output);
  else out(withUrl.map((v) => `${v.url}\n`).join(''));
  say(`${verb} ${visitors.length === 1 ? `visitor ${visitors[0]?.slug}` : `${visitors.length} visitors`} in ${where(ctx.store)}.`);
}

/** The `voice visitor` command and its subcommands. */
export function visitorCommand(): Command {
  const visitor = new Command('visitor').description('manage the prospects who get a personalised demo page (local file, or the hosted table when configured)');

  common(visitor.command('list').description('list visitors')).action(
    action(async (ctx) => {
      const all = await ctx.store.list();
      if (ctx.cli.output.mode === 'json') return printJson(all, ctx.cli.output);
      if (all.length === 0) return say(`No visitors in ${where(ctx.store)}. Create one: voice visitor create acme --name "Acme Corp" --system "..." --first-message "..."`);
      const rows = all.map((v) => [v.slug, v.name, pageUrl(ctx.settings.demoUrl, v.slug)]);
      await printView({ kind: 'table', headers: ['SLUG', 'NAME', 'PAGE'], fields: ['slug', 'name', 'page'], rows }, ctx.cli.output);
    }),
  );

  common(visitor.command('get').description('show one visitor').argument('<slug>', 'the visitor slug')).action(
    action(async (ctx, slug: string) => {
      const found = await ctx.store.get(checkSlug(slug));
      if (!found) throw new CliError(`No visitor ${slug} in ${where(ctx.store)}.`, ExitCode.Failure, 'See `voice visitor list`.');
      if (ctx.cli.output.mode === 'json') return printJson(found, ctx.cli.output);
      const entries: Array<[string, unknown]> = [...Object.entries(found), ['page', pageUrl(ctx.settings.demoUrl, found.slug)]];
      await printView({ kind: 'object', entries }, ctx.cli.output);
    }),
  );

  common(fields(visitor.command('create').description('add visitors and print their page URLs').argument('[slug]', 'the new visitor slug'), 'required')).action(
    action(async (ctx, slug: string | undefined) => {
      const flags = ctx.flags as FieldFlags;
      const created = await ctx.store.create((await gather(slug, flags, false)) as Visitor[]);
      printChanged(ctx, created, Boolean(flags.file), 'Created');
    }),
  );

  common(fields(visitor.command('update').description('change visitors').argument('[slug]', 'the visitor slug'), 'optional')).action(
    action(async (ctx, slug: string | undefined) => {
      const flags = ctx.flags as FieldFlags;
      const updated = await ctx.store.update((await gather(slug, flags, true)) as VisitorPatch[]);
      printChanged(ctx, updated, Boolean(flags.file), 'Updated');
    }),
  );

  withYes(common(visitor.command('delete').description('remove visitors').argument('<slug...>', 'the visitor slugs'))).action(
    action(async (ctx, slugs: string[]) => {
      slugs.forEach(checkSlug);
      const unique = [...new Set(slugs)];
      const what = `${unique.length === 1 ? 'visitor' : 'visitors'} ${unique.join(', ')}`;
      // Look first, so nobody is asked to confirm deleting what is not there.
      const missing = [];
      for (const s of unique) if (!(await ctx.store.get(s))) missing.push(s);
      if (missing.length > 0) throw new CliError(`No visitor ${missing.join(', ')} in ${where(ctx.store)}.`, ExitCode.Failure, 'See `voice visitor list`.');
      await confirmOrRefuse(`delete ${what} from ${where(ctx.store)}`, ctx.flags);
      await ctx.store.delete(unique);
      if (ctx.cli.output.mode === 'json') printJson({ deleted: unique }, ctx.cli.output);
      say(`Deleted ${what} from ${where(ctx.store)}.`);
    }),
  );

  visitor.addHelpText(
    'after',
    `
Examples:
  voice visitor create acme --name "Acme Corp" --system "You are Acme's assistant..." --first-message "Hi Acme!"
  voice visitor create -f visitors.json        one visitor object or an array
  voice visitor update acme --first-message "Hello again"
  voice visitor list --json
  voice visitor delete acme --yes

Store: the local file ./visitors.json (--visitors FILE, VOICE_VISITORS_FILE), or the hosted table
when VOICE_SUPABASE_URL and VOICE_SUPABASE_SERVICE_ROLE_KEY are set (--local to force the file).
Page URLs: VOICE_DEMO_URL (default ${DEFAULT_DEMO_URL})/<slug>.`,
  );
  return visitor;
}
