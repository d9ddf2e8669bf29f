// The conversation of a call whose assistant has a model: each assistant turn is the model's
// (its words spoken, its function tool calls sent to the developer's servers and the results
// given back, its endCall, transferCall or handoff carried out); the customer's turns come from
// the scenario, from lines said on the live call, or from the browser in a web call.
import type { Json } from '../../messages/index.js';
import { runAssistantTurn } from '../../model/index.js';
import type { ChatMessage, ModelGateway, StepResult } from '../../model/index.js';
import { hangUp } from './control.js';
import { askKnowledgeBase, withDocuments } from './knowledge-base.js';
import { TurnRecorder } from './model-record.js';
import { toolsOf } from './resolve.js';
import type { Scenario } from './scenario.js';
import { customerTurns } from './scenario-turns.js';
import type { Fragments } from './audio/utterance.js';
import type { CallSession } from './session.js';
import { pressDtmf, runToolCall, runToolCalls } from './tools.js';
import { handoffTo, transferCall } from './transfer.js';

/** A model-driven conversation on one call: the history the model sees and its turns. */
export class ModelTalk {
  /** The conversation as the model sees it (without the system prompt, which the model step adds). */
  readonly history: ChatMessage[] = [];
  private turns = 0;

  constructor(
    private readonly s: CallSession,
    private readonly gateway: ModelGateway,
    private readonly members?: Json[],
  ) {}

  /** The assistant's opening by `firstMessageMode`; the model writes it for `...-with-model-generated-message`. False once the call ended. */
  async greet(): Promise<boolean> {
    const s = this.s;
    const mode = (s.assistant?.firstMessageMode as string | undefined) ?? 'assistant-speaks-first';
    const first = s.assistant?.firstMessage;
    if (mode === 'assistant-speaks-first-with-model-generated-message') return this.reply();
    if (mode === 'assistant-speaks-first' && typeof first === 'string' && first.trim()) {
      if (!(await s.speak('assistant', first, { source: 'first-message' }))) return false;
      const heard = s.lastLine?.heard ?? first;
      if (heard) this.history.push({ role: 'assistant', content: heard });
    }
    return !s.ended;
  }

  /** What the assistant's hooks need: a reply, a message for the model, a line written from a prompt. */
  hookTalk(): NonNullable<CallSession['talk']> {
    return {
      reply: () => this.reply(),
      remember: (m) => void this.history.push(m),
      prompt: async (prompt) => {
        const s = this.s;
        const input = { assistant: s.assistant ?? {}, tools: [], messages: [...this.history, { role: 'system' as const, content: prompt }], label: `call ${s.call.id} hook`, signal: s.stop.signal };
        const result = await s.deps.clock.hold(this.gateway.step(input));
        return result.ok && result.text.trim() ? result.text.trim() : undefined;
      },
    };
  }

  /** Gives the action call the model made (it has no tool result yet) its answer, so the history stays a valid chat for the next request. */
  private answerAction(content: string): void {
    const answered = new Set(this.history.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])));
    const last = [...this.history].reverse().find((m) => m.role === 'assistant');
    for (const c of last?.role === 'assistant' ? (last.tool_calls ?? []) : []) if (!answered.has(c.id)) this.history.push({ role: 'tool', tool_call_id: c.id, content });
  }

  /** The customer said something (a line, or keys as a keypad entry): it goes to the model, which answers. False once the call ended. */
  heard(text: string): Promise<boolean> {
    this.history.push({ role: 'user', content: text });
    return this.reply();
  }

  /** The customer says `line`: each turn of it is heard, then answered. False once the call ended. */
  customer(line: string | Fragments): Promise<boolean> {
    return this.s.customerSays(line, (heard) => this.heard(heard));
  }

  /** One assistant turn: model steps and tool calls until the model speaks or acts. False once the call ended. */
  async reply(): Promise<boolean> {
    const s = this.s;
    const n = ++this.turns;
    let streamed = false;
    const tools = toolsOf(s.deps.store, s.assistant);
    const known = await s.deps.clock.hold(askKnowledgeBase(s));
    if (s.ended) return false;
    if (known && 'say' in known) {
      // The knowledge base's message is the turn: the model is not asked.
      if (!(await s.speak('assistant', known.say))) return false;
      this.history.push({ role: 'assistant', content: s.lastLine?.heard ?? known.say });
      return !s.ended;
    }
    const input = {
      assistant: s.assistant ?? {},
      tools,
      messages: known ? withDocuments(this.history, known.documents) : [...this.history],
      ...(this.members ? { members: this.members } : {}),
      context: { call: s.call, ...(s.phoneNumber ? { phoneNumber: s.phoneNumber } : {}), ...(s.customer ? { customer: s.customer } : {}) },
      label: `call ${s.call.id} turn ${n}`,
      signal: s.stop.signal,
    };
    const recorder = new TurnRecorder(s.deps.record, s.call.id, n);
    const hooks = {
      callTool: async (call: { id: string; name: string; arguments: string }, tool: Json | undefined) => {
        const started = performance.now();
        const outcome =
          tool?.type === 'dtmf' ? await pressDtmf(s, call) : tool ? ((await runToolCall(s, tool, call)) ?? { error: 'the call ended' }) : { error: `the assistant has no tool named ${call.name}` };
        recorder.onTool(call, outcome, performance.now() - started);
        return outcome;
      },
      // One answer's tool calls go out together: one tool-calls message per server, as the platform sends them.
      callTools: async (calls: { call: { id: string; name: string; arguments: string }; tool: Json | undefined }[]) => {
        const started = performance.now();
        // The keypad is pressed by the call itself; the other tools go to their servers together.
        const known = calls.filter((c): c is { call: (typeof c)['call']; tool: Json } => c.tool !== undefined && c.tool.type !== 'dtmf');
        const ran = known.length ? await runToolCalls(s, known) : [];
        let k = 0;
        const outcomes: { result?: string; error?: string }[] = [];
        for (const c of calls) {
          if (c.tool?.type === 'dtmf') outcomes.push(await pressDtmf(s, c.call));
          else outcomes.push(c.tool ? ((ran ?? [])[k++] ?? { error: 'the call ended' }) : { error: `the assistant has no tool named ${c.call.name}` });
        }
        const ms = performance.now() - started;
        calls.forEach((c, i) => recorder.onTool(c.call, outcomes[i] as { result?: string; error?: string }, ms));
        return outcomes;
      },
      onStep: (step: { request: { url: string; body: Json } | undefined; result: StepResult }) => recorder.onStep(step.request, step.result),
      onDelta: (text: string) => {
        streamed = true;
        void s.send('model-output', { output: { content: text } });
      },
    };
    const result = await s.deps.clock.hold(runAssistantTurn(this.gateway, input, hooks));
    recorder.finish(result);
    if (s.ended) return false;
    this.history.push(...result.messages);
    const first = result.latencies.modelMs[0];
    if (first !== undefined) s.modelAnswered(first);
    if (result.failure) {
      s.log(`Model failed on turn ${n}: ${result.failure.message}`, 'ERROR');
      s.finish(result.failure.endedReason);
      return false;
    }
    if (result.text.trim()) {
      if (!(await s.speak('assistant', result.text, { streamed }))) return false;
      this.keepHeard(result.text, s.lastLine?.heard ?? result.text);
    }
    const action = result.action;
    if (!action) return !s.ended;
    // The action's tool call goes into the conversation as the platform records it.
    const call = this.pendingAction();
    if (call) {
      s.push({ role: 'tool_calls', message: '', toolCalls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }], ...s.stamp() });
      s.log(`Tool call ${call.name}(${call.arguments})`);
    }
    if (action.kind === 'endCall') {
      this.answerAction('Call ended.');
      s.log('The model ended the call (endCall)');
      await hangUp(s);
      return false;
    }
    const before = s.messages.length;
    const opts = call ? { toolCallId: call.id } : {};
    const outcome =
      action.kind === 'transferCall'
        ? await transferCall(s, action.tool, action.arguments, { ...opts, ...(this.members ? { members: this.members } : {}) })
        : await handoffTo(s, this.members, action.tool, { ...(action.assistantName ? { destination: action.assistantName } : {}), ...action.arguments }, opts);
    this.answerAction(outcome.result);
    if (s.ended) return false;
    if (!outcome.moved) return this.reply();
    // The new assistant answers at once when it had no first message of its own to say.
    const greeted = s.messages.slice(before).some((m) => m.role === 'bot');
    return greeted ? true : this.reply();
  }

  /** The model's next request keeps only what was said of its last line: the words heard before a cut, nothing when it was never said. */
  private keepHeard(text: string, heard: string): void {
    if (heard === text) return;
    const i = this.history.findLastIndex((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content.trim() === text.trim());
    const m = this.history[i];
    if (m?.role !== 'assistant') return;
    if (heard || m.tool_calls?.length) this.history[i] = { ...m, content: heard || null };
    else this.history.splice(i, 1);
  }

  /** The tool call of the model's last answer that has no result yet: the action it took. */
  private pendingAction(): { id: string; name: string; arguments: string } | undefined {
    const answered = new Set(this.history.flatMap((m) => (m.role === 'tool' ? [m.tool_call_id] : [])));
    const last = [...this.history].reverse().find((m) => m.role === 'assistant');
    const c = (last?.role === 'assistant' ? (last.tool_calls ?? []) : []).find((t) => !answered.has(t.id));
    return c ? { id: c.id, name: c.function.name, arguments: c.function.arguments } : undefined;
  }
}

/** Runs a model-driven call: the opening, then customer turns (the scenario's lines, and lines said live) until someone hangs up. */
export async function converseWithModel(s: CallSession, gateway: ModelGateway, scenario: Scenario, members?: Json[]): Promise<void> {
  void s.send('assistant.started', { newAssistant: s.assistant ?? {} });
  const talk = new ModelTalk(s, gateway, members);
  s.talk = talk.hookTalk();
  if (scenario.turns.some((t) => t.tools || t.handoff || t.endCall)) s.log("The scenario's tools, handoff and endCall lines are ignored: the model decides what the assistant does", 'WARN');
  const turns = customerTurns(s, scenario, (heard) => talk.heard(heard));
  if (!(await turns.opening(() => talk.greet()))) return;
  for (const [i, turn] of scenario.turns.entries()) {
    if (!(await turns.before(i))) return;
    if (turn.say !== undefined && !(await talk.customer(turn.say))) return;
    if (!(await turns.keys(turn))) return;
    if (turn.hangup) return s.finish('customer-ended-call');
  }
  if (await turns.end()) s.finish('customer-ended-call');
}
