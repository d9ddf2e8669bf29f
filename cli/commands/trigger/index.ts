// `voice trigger <type>`: sends one realistic server message to your server and judges the
// answer. Thin: parse flags, build the message (webhook/trigger-message), send, print, exit code.
import { Command } from 'commander';
import { ABOUT, expectsAnswer, serverMessageTypes } from '#core/messages/index';
import { contextOf } from '../../context.js';
import { CliError, ExitCode, usageError } from '../../errors.js';
import { printJson } from '../../output/print.js';
import { dim, yellow } from '../../output/style.js';
import { addSecret, err, out } from '../../redact.js';
import { headerFlag, listFlag, secondsFlag } from '../../webhook/flags.js';
import { replay } from '../../webhook/replay-run.js';
import { postServerMessage } from '#core/messages/post';
import { callIdOf } from '../../webhook/summary.js';
import { callContext, triggerMessage } from '../../webhook/trigger-message.js';
import { failureOf, resultJson, resultLines } from '../../webhook/trigger-result.js';
import { triggerVoice } from '../../webhook/trigger-voice.js';
import type { TriggerResult } from '../../webhook/trigger-result.js';
import { checkType, judgeAnswer, messageProblems } from '../../webhook/types.js';
import { targetUrl } from '../../webhook/url.js';
import { collect } from '../resources/index.js';
import { signingPlan } from '../../webhook/credential.js';
import { signServerMessage } from 'voice-agent-core/verify';

interface TriggerOptions {
  forwardTo?: string;
  set?: string[];
  file?: string;
  call?: string;
  header?: Record<string, string>;
  timeout: number;
  list?: boolean;
  replay?: string;
  credential?: string;
  diff?: boolean;
  ignore?: string[];
}

const TONE = { ok: 32, bad: 31 } as const;

/** Every type with whether it waits for an answer and when it is sent: aligned on a terminal, tab-separated when piped. */
function listTypes(json: boolean, pretty: boolean, terminal: boolean): void {
  const rows = serverMessageTypes.map((type) => ({ type, expectsAnswer: expectsAnswer(type), about: ABOUT[type] }));
  if (json) return printJson(rows, { pretty });
  const answer = (r: { expectsAnswer: boolean }): string => (r.expectsAnswer ? 'expects an answer' : '');
  if (!terminal) return out(rows.map((r) => `${r.type}\t${answer(r)}\t${r.about}\n`).join(''));
  const width = Math.max(...rows.map((r) => r.type.length));
  const answerWidth = 'expects an answer'.length;
  out(rows.map((r) => `${r.type.padEnd(width)}  ${yellow(answer(r).padEnd(answerWidth))}  ${dim(r.about)}\n`).join(''));
}

/** The `voice trigger` command. */
export function triggerCommand(): Command {
  return new Command('trigger')
    .description('Send one realistic server message (any type) to your server, and check its answer')
    .argument('[type]', 'message type, e.g. tool-calls, status-update, assistant-request (see --list)')
    .option('--forward-to <url>', 'your server, e.g. localhost:3000/webhook (required unless --list or --dry-run)')
    .option('--set <path=value>', 'change a field of the message, e.g. status=ended or call.id=abc (repeatable; JSON values are parsed)', collect)
    .option('-f, --file <path>', 'start from this message file ({ "message": {...} } or the message), or - for stdin')
    .option('--call <id>', 'fill the call, assistant, customer and phone number from this real or emulated call')
    .option('--header <header>', 'send this header too, e.g. "x-vapi-secret: s3cret" (repeatable)', headerFlag)
    .option('--timeout <seconds>', "how long to wait for the answer (the platform's default server timeout)", secondsFlag, 20)
    .option('--list', 'list every message type and which ones expect an answer')
    .option('--credential <id>', 'sign as the platform does for a server naming this webhook credential (its bearer or HMAC plan, read through the API)')
    .option('--replay <file>', 'send every message of a recording (voice listen --record FILE) again, in order')
    .option('--diff', 'with --replay: compare each answer with the recorded one, field by field; exit 1 on a difference')
    .option('--ignore <fields>', 'with --diff: fields to leave out, by name anywhere or dotted path (comma-separated, repeatable)', listFlag)
    .addHelpText(
      'after',
      `
Sends { "message": {...} } built by the same code the emulator's calls use. Prints the status,
latency and answer; for types that expect an answer (tool-calls, assistant-request,
transfer-destination-request, knowledge-base-request, ...) judges it as the platform reads it
(its published response schema; a field the schema lists but the platform does not need is a note)
and says what is wrong.
Exit status: 0 when the server answered 2xx (with a valid answer where one is expected),
1 when it failed, timed out or answered wrongly, 2 for usage errors.

Examples:
  $ voice trigger --list
  $ voice trigger tool-calls --forward-to localhost:3000/webhook
  $ voice trigger status-update --forward-to localhost:3000/webhook --set status=ended
  $ voice trigger end-of-call-report --forward-to https://example.com/hook --header "x-vapi-secret: $SECRET"
  $ voice trigger assistant-request --forward-to localhost:3000/webhook --set customer.number=+15555550123
  $ voice --local trigger tool-calls --call <callId> --forward-to localhost:3000/webhook
  $ voice trigger tool-calls -f message.json --forward-to localhost:3000/webhook --json
  $ voice trigger transcript --dry-run > message.json
  $ voice --local trigger status-update --forward-to localhost:3000/webhook --credential <credentialId>
  $ voice trigger --replay call.jsonl --forward-to localhost:3000/webhook --diff --ignore timestamp`,
    )
    .action(async (type: string | undefined, _o: unknown, cmd: Command) => {
      const ctx = contextOf(cmd);
      const opts = ctx.opts as TriggerOptions & typeof ctx.opts;
      const json = ctx.output.mode === 'json';
      if (opts.list) return listTypes(json, ctx.output.pretty, ctx.output.mode === 'ink');
      const plan = opts.credential === undefined ? undefined : await signingPlan(ctx, opts.credential);
      const sign = async (body: string, url: string): Promise<Record<string, string>> => ({ ...(opts.header ?? {}), ...(plan ? await signServerMessage(body, plan, { url, method: 'POST' }) : {}) });
      if (opts.replay !== undefined) {
        if (type !== undefined) throw usageError('--replay sends the recorded messages; leave out the message type.');
        if (opts.forwardTo === undefined) throw usageError('voice trigger --replay needs --forward-to URL: where your server listens.');
        for (const v of Object.values(opts.header ?? {})) addSecret(v);
        const io = { out: (t: string) => out(t), err: (t: string) => err(t) };
        return replay({ file: opts.replay, url: targetUrl(opts.forwardTo), headers: sign, timeoutMs: opts.timeout * 1000, diff: Boolean(opts.diff), ignore: opts.ignore ?? [], json }, io);
      }
      if (opts.diff || opts.ignore) throw usageError('--diff and --ignore go with --replay FILE.');
      // What to send is checked before where: an unknown type is the likelier mistake.
      if (type !== undefined) checkType(type);
      else if (opts.file === undefined) throw usageError('Name a message type, e.g. voice trigger tool-calls --forward-to localhost:3000/webhook', 'voice trigger --list shows every type.');
      const url = opts.forwardTo === undefined ? undefined : targetUrl(opts.forwardTo);
      // Header values are often secrets (x-vapi-secret): an answer that echoes one is masked.
      for (const v of Object.values(opts.header ?? {})) addSecret(v);
      if (!url && !opts.dryRun)
        throw usageError('voice trigger needs --forward-to URL: where your server listens, e.g. --forward-to localhost:3000/webhook', 'Or --dry-run to print the message without sending it.');
      let call;
      if (opts.call !== undefined) {
        ctx.requireKey();
        call = await callContext(ctx.client(), opts.call);
      }
      const message = await triggerMessage({ ...(type ? { type } : {}), ...(opts.file !== undefined ? { file: opts.file } : {}), sets: opts.set ?? [], ...(call ? { call } : {}) });
      const body = JSON.stringify({ message });
      if (opts.dryRun || !url) return printJson({ message }, ctx.output);
      const callId = callIdOf(message);
      // The builders' messages fit their schemas (tested); one changed by --set or -f is checked, and
      // still sent when it does not fit (servers must cope), but the user is told.
      if (opts.file !== undefined || opts.set?.length) {
        for (const p of await messageProblems(message)) err(yellow(`Note: the message does not fit the published schema: ${p}\n`));
      }
      if (!json) err(dim(`POST ${url}  ${message.type}${callId ? `  call ${callId}` : ''}\n`));
      let result: TriggerResult;
      // A custom voice server answers with audio, judged as audio.
      if (message.type === 'voice-request') result = { ...(await triggerVoice(url, body, message, await sign(body, url), opts.timeout * 1000)), ...(callId ? { callId } : {}) };
      else {
        const delivery = await postServerMessage(url, body, { headers: await sign(body, url), timeoutMs: opts.timeout * 1000 });
        const ok = delivery.status !== undefined && delivery.status >= 200 && delivery.status < 300;
        const verdict = ok ? await judgeAnswer(message, delivery.answer) : undefined;
        result = { type: message.type, delivery, ...(callId ? { callId } : {}), ...(verdict ? { problems: verdict.problems, notes: verdict.notes } : {}) };
      }
      if (json) printJson(resultJson(result), ctx.output);
      else {
        for (const line of resultLines(result, ctx.output.pretty)) {
          const tone = line.tone === 'plain' || !ctx.output.color ? undefined : TONE[line.tone];
          out(`${tone ? `\x1b[${tone}m${line.text}\x1b[39m` : line.text}\n`);
        }
      }
      const failure = failureOf(result);
      if (failure) throw new CliError(failure, ExitCode.Failure);
    });
}
