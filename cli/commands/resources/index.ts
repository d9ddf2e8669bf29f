// Builds `voice <resource...> <action> [values...]` for every catalogue operation from
// flatten(catalogue): the one list of endpoints, never a second one here.
import type { Command } from 'commander';
import type { Entry } from '#core/catalogue/index';
import { pathParamNames } from '#core/catalogue/index';
import { contextOf } from '../../context.js';
import { FRIENDLY, flagOf, isArrayParam } from '../../query.js';
import { takesCustomersCsv } from './customers-csv.js';
import { examplesFor } from './words.js';
import { runOp } from './run-op.js';

/** Collects repeated option values into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function addAction(parent: Command, entry: Entry): void {
  const { op } = entry;
  const cmd = parent.command(entry.action).description(`${op.summary}${op.deprecated ? ' (deprecated)' : ''}`);
  const names = pathParamNames(op.path);
  for (const name of names) cmd.argument(`<${name}>`, `${name} (path value)`);
  if (op.body === 'multipart') {
    cmd.argument('<file>', 'path of the file to upload');
    cmd.option('--set <field=value>', 'a form field sent with the file (repeatable)', collect);
  } else if (op.body === 'json') {
    cmd.option('-f, --file <path>', 'body from a JSON file (YAML when it ends in .yml or .yaml), or - for JSON on stdin');
    cmd.option('--set <key=value>', 'set a body field, e.g. name="Front desk" or model.temperature=0.2 (repeatable; typed by the field: a text field keeps the text)', collect);
    if (entry.action === 'update') cmd.option('--unset <key>', 'remove a field inside an object, e.g. model.temperature (repeatable)', collect);
    if (takesCustomersCsv(entry)) cmd.option('--customers-csv <file>', 'the customers from a contact CSV as the dashboard takes it: a number column, optional name, other columns become variables');
  }
  for (const name of op.query) {
    const friendly = FRIENDLY[name];
    if (friendly) cmd.option(`${friendly.flag} ${friendly.arg}`, friendly.help);
    else if (isArrayParam(name)) cmd.option(`${flagOf(name)} <value>`, `${name} query parameter (repeatable)`, collect);
    else cmd.option(`${flagOf(name)} <value>`, `${name} query parameter`);
  }
  if (op.list) {
    cmd.option('--all', 'fetch every page and print all items');
    cmd.option('--wide', 'show every cell of the table whole (lines may be wider than the terminal)');
    cmd.option('--columns <fields>', "the table's columns, comma-separated (dotted for nested fields), e.g. id,status,customer.number");
  }
  if (op.response === 'binary') cmd.option('-o, --out <file>', 'save the file the API answers with here (else stdout, when piped)');
  if (op.query.length) cmd.option('--query <key=value>', 'any other query parameter (repeatable)', collect);
  cmd.addHelpText(
    'after',
    `\nExamples:\n${examplesFor(entry)
      .map((e) => `  $ ${e}`)
      .join('\n')}\n\n${op.method} ${op.path}${op.auth === 'none' ? ' (no authorization)' : ''}\n`,
  );
  cmd.action(async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const values = args.slice(0, names.length + (op.body === 'multipart' ? 1 : 0)) as string[];
    await runOp(entry, values, contextOf(command));
  });
}

/** Builds the actions of resources on demand. */
export interface ResourceTree {
  /** Adds the actions of one top-level resource, only those in `words` when it names any. */
  build(top: string, words?: ReadonlySet<string>): void;
  /** Adds the actions of every resource (for help listings and completion). */
  buildAll(): void;
}

/**
 * Adds one command per resource now and their actions on demand: building only the resource
 * named on the command line keeps startup short.
 */
export function addResources(program: Command, entries: readonly Entry[]): ResourceTree {
  const groups = new Map<string, Command>();
  const actions = new Map<string, string[]>();
  for (const e of entries) {
    const key = e.resource.join(' ');
    actions.set(key, [...(actions.get(key) ?? []), e.action]);
  }
  const groupOf = (resource: readonly string[]): Command => {
    const key = resource.join(' ');
    let group = groups.get(key);
    if (!group) {
      const parent = resource.length > 1 ? groupOf(resource.slice(0, -1)) : program;
      const own = actions.get(key);
      const subs = [...actions.keys()].filter((k) => k.startsWith(`${key} `) && k.split(' ').length === resource.length + 1).map((k) => k.split(' ').pop());
      const parts = [own?.length ? `actions: ${own.join(', ')}` : '', subs.length ? `more: ${subs.join(', ')}` : ''].filter(Boolean).join('; ');
      group = parent.command(resource[resource.length - 1] as string).description(parts);
      // A function, so the examples are worked out only when help is shown.
      group.addHelpText(
        'after',
        () =>
          `\nExamples:\n${entries
            .filter((e) => e.resource.join(' ').startsWith(key))
            .slice(0, 3)
            .map((e) => `  $ ${examplesFor(e)[0]}`)
            .join('\n')}\n`,
      );
      groups.set(key, group);
    }
    return group;
  };
  // Top-level groups now; nested ones (`eval simulation suite`) when their actions are built.
  for (const entry of entries) groupOf(entry.resource.slice(0, 1));
  const built = new Set<Entry>();
  const add = (entry: Entry): void => {
    if (built.has(entry)) return;
    built.add(entry);
    addAction(groupOf(entry.resource), entry);
  };
  const build = (top: string, words?: ReadonlySet<string>): void => {
    const mine = entries.filter((e) => e.resource[0] === top);
    // Only the action named on the command line, when one is: fewer options to construct. With
    // none named (help, a typo), all of them, so help lists them and typos get suggestions.
    const named = words ? mine.filter((e) => words.has(e.action) && e.resource.every((r) => words.has(r))) : [];
    (named.length ? named : mine).forEach(add);
  };
  return { build, buildAll: () => entries.forEach(add) };
}
