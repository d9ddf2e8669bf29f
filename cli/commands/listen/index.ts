// `voice listen`: a local receiver for server messages. Thin: parse flags, start the receiver,
// print one line per message (terminal, plain or JSON lines), stop cleanly on Ctrl-C.
import { appendFileSync } from 'node:fs';
import { Command } from 'commander';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { outputSettings } from '../../output/mode.js';
import { setErrColor } from '../../output/style.js';
import { contextOf } from '../../context.js';
import { addSecret, err } from '../../redact.js';
import { signingPlan } from '../../webhook/credential.js';
import { portFlag, listFlag, secondsFlag } from '../../webhook/flags.js';
import { receivedLine } from './lines.js';
import { appendRecord } from '../../webhook/replay.js';
import { printLine } from '../../webhook/lines.js';
import { noopAnswer } from '../../webhook/noop.js';
import { startReceiver } from '../../webhook/receiver.js';
import type { Receiver } from '../../webhook/receiver.js';
import { checkTypes, judgeAnswer, warmJudge } from '../../webhook/types.js';
import { targetUrl } from '../../webhook/url.js';

interface ListenOptions {
  port: number;
  host: string;
  forwardTo?: string;
  events?: string[];
  timeout: number;
  json?: boolean;
  color?: boolean;
  record?: string;
  secret?: string;
  credential?: string;
  allowHost?: string[];
}

function banner(r: Receiver, forwardTo: string | undefined, events: string[] | undefined, signed: string | undefined): string {
  return [
    `Listening for server messages on ${r.url} (Ctrl-C to stop)`,
    signed ? `  Taking only messages ${signed}; web pages never may post here.` : '  Web pages may not post here; anything else may (--secret to require one).',
    forwardTo ? `  Forwarding each to ${forwardTo}; its answers go back to the sender.` : '  No --forward-to: each message gets a no-op answer the platform accepts.',
    events ? `  Showing only: ${events.join(', ')}` : '',
    `  Emulator:  voice --local assistant update <id> --set server.url=${r.url}`,
    `  Hosted:    expose port ${r.port} through a tunnel (e.g. ngrok http ${r.port}) and use its URL as the server URL${signed ? '.' : ', with --secret (or --allow-host <tunnel name>).'}`,
    '',
  ]
    .filter((l, i, all) => l !== '' || i === all.length - 1)
    .join('\n');
}

/** The `voice listen` command. */
export function listenCommand(): Command {
  return new Command('listen')
    .description("Receive the platform's server messages locally: print each, forward it to your server and relay the answer")
    .option('--port <port>', 'port to listen on (0 = any free port)', portFlag, 4242)
    .option('--host <host>', 'address to bind (loopback unless you say otherwise)', '127.0.0.1')
    .option('--forward-to <url>', 'your server: each message is posted there and its answer relayed back (e.g. localhost:3000/webhook)')
    .option('--events <types>', 'only show and forward these message types (comma-separated, repeatable)', listFlag)
    .option('--timeout <seconds>', 'how long to wait for your server before answering 504', secondsFlag, 20)
    .option('--record <file>', 'append every message and the answer it got to this file, one JSON line each (secrets masked); replay with voice trigger --replay')
    .option('--secret <secret>', "take only messages carrying this secret (x-vapi-secret, as the platform sends a server's secret, or Authorization: Bearer); default VOICE_WEBHOOK_SECRET")
    .option('--credential <id>', "take only messages signed with this webhook credential's bearer or HMAC plan (read through the API)")
    .option('--allow-host <name>', "also take unsigned messages sent to this Host name, e.g. a tunnel's (repeatable; loopback names and IP addresses always)", listFlag)
    .addHelpText(
      'after',
      `
One line per message on a terminal (time, type, call id, what matters: status, tool and
arguments, transcript, ended reason; then your server's status and latency). Tab-separated
when piped; JSON lines with --json (the whole message and the answer, secrets masked).

Examples:
  $ voice listen --forward-to localhost:3000/webhook
  $ voice listen --events tool-calls,end-of-call-report --json | jq .message.type
  $ voice listen --port 0 --host 0.0.0.0
  $ VOICE_WEBHOOK_SECRET=s3cret-value voice listen   # then: ngrok http 4242
  $ voice listen --forward-to localhost:3000/webhook --record call.jsonl
  $ voice --local assistant update <id> --set server.url=http://127.0.0.1:4242`,
    )
    .action(async (_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<ListenOptions>();
      const output = outputSettings(opts);
      setErrColor(output.errColor);
      const forwardTo = opts.forwardTo === undefined ? undefined : targetUrl(opts.forwardTo);
      const events = opts.events?.length ? checkTypes(opts.events, '--events') : undefined;
      if (opts.record) {
        // Fails now, not on the first message, when the file cannot be written.
        try {
          appendFileSync(opts.record, '');
        } catch (e) {
          throw usageError(`--record ${opts.record}: cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`);
        }
      }
      const secret = opts.secret ?? (process.env.VOICE_WEBHOOK_SECRET || undefined);
      addSecret(secret);
      const plan = opts.credential === undefined ? undefined : await signingPlan(contextOf(cmd), opts.credential);
      const signed = [secret ? 'carrying the secret' : '', plan ? `signed with credential ${opts.credential}` : ''].filter(Boolean).join(' and ') || undefined;
      let receiver: Receiver;
      try {
        receiver = await startReceiver({
          port: opts.port,
          host: opts.host,
          forwardTo,
          events: events ? new Set(events) : undefined,
          timeoutMs: opts.timeout * 1000,
          noop: noopAnswer,
          senders: { secret, plan, hosts: opts.allowHost },
          judge: judgeAnswer,
          onReceived: (r) => {
            if (opts.record && r.type && r.message && !r.filtered && !r.refused) {
              appendRecord(opts.record, { time: r.time.toISOString(), type: r.type, ...(r.callId ? { callId: r.callId } : {}), message: r.message, status: r.reply.status, answer: r.reply.body });
            }
            for (const line of receivedLine(r)) printLine(line, output);
          },
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE')
          throw new CliError(
            `Port ${opts.port} on ${opts.host} is already in use.`,
            ExitCode.Failure,
            `Pick another with --port, e.g. voice listen --port ${opts.port + 1} (or --port 0 for any free port).`,
          );
        if (code === 'EACCES') throw new CliError(`Not allowed to listen on port ${opts.port}.`, ExitCode.Failure, 'Pick a port above 1023 with --port.');
        if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
          throw usageError(`Cannot listen on host ${opts.host}: no such local address.`, 'Use --host 127.0.0.1 (the default) or an address of this machine.');
        throw error;
      }
      err(banner(receiver, forwardTo, events, signed));
      if (!['127.0.0.1', 'localhost', '::1'].includes(opts.host)) err(`  Warning: bound to ${opts.host}, so other machines can post here${forwardTo ? ' and reach your server through it' : ''}.\n`);
      if (forwardTo) warmJudge();
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop).off('SIGTERM', stop);
          const force = (): never => process.exit(ExitCode.Interrupted);
          process.once('SIGINT', force);
          const done = (): void => {
            process.off('SIGINT', force);
            err(`\nStopped after ${receiver.count()} message${receiver.count() === 1 ? '' : 's'}.\n`);
            resolve();
          };
          void receiver.close().then(done, done);
        };
        process.once('SIGINT', stop).once('SIGTERM', stop);
      });
    });
}
