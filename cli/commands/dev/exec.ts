// `voice dev exec [dev options] -- <command...>`: the emulator as a fixture for one command (a test
// suite in CI): start it on a free port, wait until it answers, run the command with
// VOICE_API_URL and VOICE_API_KEY set, stop the emulator and exit with the command's code.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { Command } from 'commander';
import { ExitCode, PassThroughExit, usageError } from '../../errors.js';
import { profileName } from '../../settings.js';
import type { DevIo, DevOptions } from './options.js';
import { startDev } from './run.js';

/** The exit code of a child that ended by a signal, as shells report it (128 + number). */
function signalCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 1);
}

/** The `voice dev exec` command. */
export function execCommand(io: DevIo): Command {
  // No options of its own: the root parses options wherever they are, so `voice dev exec --seed`
  // gives --seed to `voice dev`, and exec reads them there.
  return new Command('exec')
    .description("Start the emulator on a free port, run a command against it (VOICE_API_URL and VOICE_API_KEY set), stop it, exit with the command's code")
    .argument('<command...>', 'the command and its arguments, after --')
    .addHelpText(
      'after',
      `
The command inherits stdin, stdout and stderr; the emulator's request log stays off and its URL
goes to stderr. Ctrl-C stops both. Takes every option of \`voice dev\` (see voice dev --help);
--port defaults to 0 here (a free port). --apply leaves no state file in the folder (the emulator
is thrown away at the end, so its state file lives in a temporary folder removed with it).
The platform's server SDK has no base-URL variable: point it with
  new VapiClient({ token: process.env.VOICE_API_KEY, baseUrl: process.env.VOICE_API_URL })

Examples:
  voice dev exec -- npm test
  voice dev exec --apply resources --speed 50 -- npx vitest run
  voice dev exec --import fixtures/state.json --export-on-exit out/state.json -- node smoke.mjs
  voice dev exec -- node -e "fetch(process.env.VOICE_API_URL + '/assistant', { headers: { authorization: 'Bearer ' + process.env.VOICE_API_KEY } }).then(r => process.exit(r.ok ? 0 : 1))"`,
    )
    .action(async (command: string[], _o: unknown, cmd: Command) => {
      const dev = cmd.parent as Command;
      const opts = { ...dev.opts<DevOptions>() };
      if (dev.getOptionValueSource('port') === 'default') opts.port = 0;
      const [file, ...args] = command;
      if (!file) throw usageError('Name the command to run after --, e.g. voice dev exec -- npm test');
      const globals = cmd.optsWithGlobals<{ apiKey?: string; profile?: string }>();
      const apiKey = opts.apiKey ?? globals.apiKey;
      // The command's own output is what matters: the emulator's request lines stay off.
      const running = await startDev({ ...opts, quiet: true }, apiKey, io, profileName(globals), { throwaway: true });
      io.err(`voice dev exec: emulator on ${running.emu.url} (${running.emu.model.describe()}); running ${command.join(' ')}\n`);
      const env = { ...process.env, VOICE_API_URL: running.emu.url, VOICE_API_KEY: running.key };
      const code = await new Promise<number>((resolve) => {
        const child = spawn(file, args, { stdio: 'inherit', env });
        // Ctrl-C reaches the whole foreground group (the child too); a SIGTERM to us is passed on.
        const relay = (signal: NodeJS.Signals): void => void child.kill(signal);
        const onInt = (): void => relay('SIGINT');
        const onTerm = (): void => relay('SIGTERM');
        process.on('SIGINT', onInt).on('SIGTERM', onTerm);
        child.once('error', (e: NodeJS.ErrnoException) => {
          process.off('SIGINT', onInt).off('SIGTERM', onTerm);
          io.err(`voice dev exec: cannot run ${file}: ${e.code === 'ENOENT' ? 'no such command' : e.message}\n`);
          resolve(127);
        });
        child.once('exit', (status, signal) => {
          process.off('SIGINT', onInt).off('SIGTERM', onTerm);
          resolve(status ?? (signal ? signalCode(signal) : ExitCode.Failure));
        });
      });
      await running.stop();
      if (code !== 0) throw new PassThroughExit(code);
    });
}
