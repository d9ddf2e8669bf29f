// Builds the commander program: global options, every catalogue command, the hand-written
// commands, help with exit codes; then runs it and maps failures to exit codes.
import { Command, CommanderError } from 'commander';
import { catalogue, flatten, kebab } from '#core/catalogue/index';
import { VERSION } from '#core/version';
import { suggestion } from '#core/schemas/closest';
import { ExitCode } from './errors.js';
import { helpAsFlag, ownFlagsAfterCommand, unknownSubcommand } from './argv/before-parse.js';
import { wordsOf } from './argv/tokens.js';
import { isExpected, reportError } from './fail.js';
import { finish, installProcessHooks } from './process-hooks.js';
import { red, setErrColor } from './output/style.js';
import { outputSettings } from './output/mode.js';
import { loadUi } from './output/print.js';
import { err, out, redact } from './redact.js';
import { apiCommand } from './commands/api/index.js';
import { authCommand, loginCommand, logoutCommand } from './commands/auth/index.js';
import { catalogueCommand } from './commands/catalogue/index.js';
import { completionCommand, visibleCommands } from './commands/completion/index.js';
import { addResources } from './commands/resources/index.js';
import { addCallCommands } from './commands/call/index.js';

const HELP_FOOTER = `
Examples:
  $ voice login
  $ voice assistant list
  $ voice assistant get <id> --json
  $ voice squad create -f squad.json
  $ voice assistant update <id> --set name="Front desk"
  $ voice call list --all --json | jq length
  $ voice assistant delete <id> --yes
  $ voice api GET /assistant --query limit=2

Environment:
  VOICE_API_KEY       API key (VAPI_API_KEY and VAPI_TOKEN are read too)
  VOICE_API_URL       API base URL (default https://api.vapi.ai)
  VOICE_PROFILE       profile to use (default "default")
  XDG_CONFIG_HOME     config folder (default ~/.config); the file is voice/config.json
  NO_COLOR            no colour (also TERM=dumb or --no-color)
  VOICE_SENTRY_DSN    send crash reports there (off when unset; keys and bodies are stripped)
  Precedence: flags > environment > profile.

Exit status:
  0    success
  1    failure: the API answered with an error, or the network failed
  2    usage or bad input: unknown command or flag, bad JSON, a confirmation refused (no, or no --yes)
  4    missing or rejected credentials
  130  interrupted (Ctrl-C)
`;

/** Options every command accepts, wherever they appear on the command line. */
const GLOBAL_OPTIONS: readonly (readonly [string, string])[] = [
  ['--json', "print the API's JSON (pretty on a terminal, compact when piped)"],
  ['--profile <name>', 'use this saved profile'],
  ['--local', 'talk to the local emulator (`voice dev`) at http://127.0.0.1:4010, or at --api-url when given; a placeholder key is used when none is set'],
  ['--api-url <url>', 'API base URL (overrides --local, VOICE_API_URL and the profile)'],
  ['--api-key <key>', 'API key (prefer VOICE_API_KEY or `voice login`: flags show in process lists)'],
  ['--dry-run', 'print the request as a curl command (JSON with --json) instead of sending it'],
  ['-y, --yes', 'do not ask before destructive actions'],
  ['--no-input', 'never prompt; refuse instead'],
  ['--no-color', 'no colour'],
  ['--verbose', 'log requests on stderr and show stack traces'],
];

/** A command another helper owns, loaded only when the command line names it. */
export interface LazyCommand {
  name: string;
  description: string;
  load: () => Promise<Command>;
}

/** Commands other helpers own, added to the program when present. */
export type ExtraCommands = LazyCommand[];

/**
 * Builds the program for an argv: only the resources and lazy commands it names are built, unless
 * `everything` (for completion, which lists them all).
 */
export async function buildProgram(argv: readonly string[], extra: ExtraCommands = [], options: { everything?: boolean } = {}): Promise<Command> {
  const program = new Command('voice')
    .description('Manage every resource of the voice-AI agent platform, from a terminal or a CI script.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (s) => out(s),
      writeErr: (s) => err(s),
      outputError: (s, write) => write(red(s)),
    })
    .addHelpText('after', HELP_FOOTER);
  program.addHelpCommand('help [command...]', 'show help for a command');

  const tree = addResources(program, flatten(catalogue));
  const callGroup = program.commands.find((c) => c.name() === 'call');
  if (callGroup) addCallCommands(callGroup);
  const words = new Set(wordsOf(argv, () => 'none'));
  for (const word of words) tree.build(word, words);
  program.addCommand(catalogueCommand());
  program.addCommand(apiCommand());
  program.addCommand(loginCommand());
  program.addCommand(logoutCommand());
  program.addCommand(authCommand());
  const named = (x: LazyCommand): boolean => words.has(x.name);
  const loaded = new Map<string, Command>();
  for (const x of extra) if (named(x) || options.everything) loaded.set(x.name, await x.load());
  // Completion needs every command: a program of its own, with every lazy command loaded.
  program.addCommand(completionCommand(() => buildProgram(argv, extra, { everything: true })));
  // Commands the line does not name are stubs: `voice --help` lists them without loading their modules.
  for (const x of extra) program.addCommand(loaded.get(x.name) ?? new Command(x.name).description(x.description));
  if (options.everything) tree.buildAll();
  // A command named on the line that defines a flag of its own (`voice dev --api-key`, `voice demo
  // --api-url`) gets it: the root would otherwise consume it wherever it appears on the command line.
  const taken = new Set<string>();
  const collect = (cmd: Command): void => {
    for (const o of cmd.options) if (o.long) taken.add(o.long);
    cmd.commands.forEach(collect);
  };
  for (const x of extra.filter(named)) {
    const cmd = loaded.get(x.name);
    if (cmd) collect(cmd);
  }
  for (const [flags, help] of GLOBAL_OPTIONS) {
    const long = flags.split(/[ ,]+/).find((f) => f.startsWith('--')) as string;
    if (!taken.has(long)) program.option(flags, help);
  }
  // Commands built with new Command() do not inherit the program's settings by themselves.
  const inherit = (cmd: Command): void => {
    for (const sub of cmd.commands) {
      sub.copyInheritedSettings(cmd);
      inherit(sub);
    }
  };
  inherit(program);
  return program;
}

const NO_UI = new Set(['--json', '--dry-run', '-h', '--help', 'help', '-V', '--version', 'delete', 'leave', 'remove-member', 'completion', 'login', 'logout', 'dev', 'demo', 'visitor', 'watch']);

/** Whether a command line will render with Ink: a catalogue command on a terminal, not JSON. */
function wantsUi(argv: readonly string[]): boolean {
  if (!process.stdout.isTTY || process.env.TERM === 'dumb' || argv.some((a) => NO_UI.has(a))) return false;
  const top = wordsOf(argv, () => 'none')[0];
  return top !== undefined && RESOURCES.has(top);
}

const RESOURCES = new Set([...Object.keys(catalogue).map(kebab), 'api', 'catalogue', 'auth']);

/** Reports an unknown subcommand as commander does, with the closest name, and returns the usage exit code. */
function reportUnknown(found: { parent: Command; word: string }): number {
  const names = visibleCommands(found.parent).map((c) => c.name());
  const near = suggestion(found.word, names);
  const path: string[] = [];
  for (let c: Command | null = found.parent; c; c = c.parent) path.unshift(c.name());
  const where = path.length > 1 ? ` for '${path.join(' ')}'` : '';
  err(red(`error: unknown command '${found.word}'${where}\n${near ? `(Did you mean ${near}?)\n` : `(Commands: ${names.join(', ')})\n`}`));
  return ExitCode.Usage;
}

/** Runs the CLI with the arguments after `voice` and exits with the documented code. */
export async function main(givenArgv: string[], extra: ExtraCommands = []): Promise<never> {
  const typed = helpAsFlag(
    givenArgv,
    GLOBAL_OPTIONS.map(([flags]) => flags),
  );
  installProcessHooks();
  const verbose = typed.includes('--verbose');
  const color = !typed.includes('--no-color');
  setErrColor(outputSettings({ color }).errColor);
  // Reading and compiling Ink takes longer than anything else on the terminal path, so it starts
  // before the program is even built when a resource command will draw a table or view.
  if (wantsUi(typed)) void loadUi(outputSettings({ color }).color).catch(() => undefined);
  const program = await buildProgram(typed, extra);
  const argv = ownFlagsAfterCommand(
    typed,
    program,
    GLOBAL_OPTIONS.map(([flags]) => flags),
  );
  // `voice foo --help` would print the top help and exit 0, and `voice dev rset` would say "too
  // many arguments": both are unknown commands (exit 2, with the closest name), as in `gh`.
  const unknown = unknownSubcommand(argv, program);
  if (unknown) return finish(reportUnknown(unknown));
  if (argv.length === 0) {
    program.outputHelp();
    return finish(ExitCode.Ok);
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return await finish(ExitCode.Ok);
  } catch (error) {
    if (error instanceof CommanderError) {
      // `voice help X` is commander.help, `voice X --help` commander.helpDisplayed: both asked for help.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.help' || error.code === 'commander.version') return finish(ExitCode.Ok);
      return finish(ExitCode.Usage);
    }
    const code = reportError(error, verbose);
    if (!isExpected(error)) await (await import('./sentry.js')).reportCrash(error, { redact, version: VERSION });
    return finish(code);
  }
}
