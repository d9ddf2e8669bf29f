// The assistant's hooks on the call's audio: `customer.speech.timeout` (the customer has said
// nothing for `timeoutSeconds` since the assistant finished its turn; each hook fires once per
// silence, its own line does not restart the clock, at most `triggerMaxCount` times a call, the
// count starting again when the customer speaks with `triggerResetMode: onUserSpeech`), and the
// interruption hooks. Their actions: `say` (exact text; a prompt with the assistant's model),
// `tool` (a function tool's server, endCall, transferCall, dtmf) and `message.add`.
import type { Json } from '../../../messages/index.js';
import { isObject } from '../../../json.js';
import { toolName } from '../resolve.js';
import { runToolCall, toolCallId } from '../tools.js';
import { transferCall } from '../transfer.js';
import type { CallSession } from '../session.js';

/** What a hook's actions need from the conversation: an answer from the assistant, and a message for its model. */
export interface HookTalk {
  reply(): Promise<boolean>;
  remember(message: { role: 'system' | 'user' | 'assistant'; content: string }): void;
  /** The model's line for a `say` action's prompt (undefined without a model). */
  prompt?(prompt: string): Promise<string | undefined>;
}

/** A `customer.speech.timeout` hook due at `at` (seconds from the call's start). */
export interface DueHook {
  at: number;
  index: number;
  hook: Json;
}

const TIMEOUT = 'customer.speech.timeout';

/** The hooks of one call. */
export class CallHooks {
  private since: number | undefined;
  private readonly fired = new Set<number>();
  private readonly counts = new Map<number, number>();

  constructor(private readonly s: CallSession) {}

  private hooks(): Json[] {
    const list = this.s.assistant?.hooks;
    return Array.isArray(list) ? list.filter(isObject) : [];
  }

  /** The assistant finished a turn at `at`: a silence may begin. */
  assistantDone(at: number): void {
    if (this.s.audio?.customerEnd() !== undefined) return;
    this.since = at;
    this.fired.clear();
  }

  /** The customer spoke (or pressed keys): the silence is over. */
  customerSpoke(): void {
    this.since = undefined;
    this.fired.clear();
    this.hooks().forEach((h, i) => {
      if (isObject(h.options) && h.options.triggerResetMode === 'onUserSpeech') this.counts.delete(i);
    });
  }

  /** The next `customer.speech.timeout` hook due in the current silence. */
  nextSilence(): DueHook | undefined {
    if (this.since === undefined) return undefined;
    let due: DueHook | undefined;
    this.hooks().forEach((hook, index) => {
      if (typeof hook.on !== 'string' || !hook.on.startsWith(TIMEOUT) || this.fired.has(index)) return;
      const o = isObject(hook.options) ? hook.options : {};
      const max = typeof o.triggerMaxCount === 'number' ? o.triggerMaxCount : 3;
      if ((this.counts.get(index) ?? 0) >= max) return;
      const at = (this.since as number) + (typeof o.timeoutSeconds === 'number' ? o.timeoutSeconds : 7.5);
      if (!due || at < due.at) due = { at, index, hook };
    });
    return due;
  }

  /** Fires a due silence hook; false once the call ended. */
  async fireSilence(due: DueHook): Promise<boolean> {
    this.fired.add(due.index);
    return this.run(due.hook, due.index);
  }

  /** Fires every hook on `on` (the interruption events). */
  async interrupted(on: 'assistant.speech.interrupted' | 'customer.speech.interrupted'): Promise<void> {
    for (const [index, hook] of this.hooks().entries()) if (hook.on === on && !(await this.run(hook, index))) return;
  }

  private async run(hook: Json, index: number): Promise<boolean> {
    const s = this.s;
    const count = (this.counts.get(index) ?? 0) + 1;
    this.counts.set(index, count);
    const actions = Array.isArray(hook.do) ? hook.do.filter(isObject) : [];
    const on = String(hook.on);
    s.audio?.timeline.add({ type: 'hook', at: s.secondsNow(), on, ...(typeof hook.name === 'string' ? { name: hook.name } : {}), count, actions: actions.map((a) => String(a.type)) });
    s.log(`Hook ${on}${typeof hook.name === 'string' ? ` (${hook.name})` : ''} fired (${count} time${count === 1 ? '' : 's'})`);
    for (const action of actions) if (!s.ended && !(await this.act(action, count))) return false;
    return !s.ended;
  }

  private async act(action: Json, count: number): Promise<boolean> {
    const s = this.s;
    if (action.type === 'say') {
      const exact = Array.isArray(action.exact) ? action.exact.filter((t): t is string => typeof t === 'string') : typeof action.exact === 'string' ? [action.exact] : [];
      // The platform picks one of several texts at random; locally the choice cycles, so a run repeats.
      let text = exact.length ? exact[(count - 1) % exact.length] : undefined;
      if (text === undefined && typeof action.prompt === 'string') text = await s.talk?.prompt?.(action.prompt);
      if (text === undefined) {
        s.log('A hook says from a prompt, and no model is configured to write its line: nothing was said', 'WARN');
        return true;
      }
      return s.speak('assistant', text, { source: 'hook' });
    }
    if (action.type === 'message.add' && isObject(action.message)) {
      const { role, content } = action.message;
      if ((role !== 'system' && role !== 'user' && role !== 'assistant') || typeof content !== 'string') return true;
      const stamp = s.stamp();
      s.push(role === 'system' ? { role, message: content, ...stamp } : { role: role === 'assistant' ? 'bot' : 'user', message: content, ...stamp, endTime: stamp.time });
      s.talk?.remember({ role, content });
      return action.triggerResponseEnabled === false || role === 'assistant' ? true : (s.talk?.reply() ?? true);
    }
    if (action.type === 'tool') return this.tool(action);
    s.log(`A hook's ${String(action.type)} action is not run by the local platform`, 'WARN');
    return true;
  }

  private async tool(action: Json): Promise<boolean> {
    const s = this.s;
    const tool = isObject(action.tool) ? action.tool : typeof action.toolId === 'string' ? s.deps.store.get('tool', action.toolId) : undefined;
    if (!tool) {
      s.log(`A hook's tool action names no tool it can find${typeof action.toolId === 'string' ? ` (toolId ${action.toolId})` : ''}`, 'WARN');
      return true;
    }
    if (tool.type === 'endCall') {
      s.finish('assistant-ended-call');
      return false;
    }
    if (tool.type === 'dtmf') return s.pressKeys('assistant', typeof action.dtmf === 'string' ? action.dtmf : '');
    if (tool.type === 'transferCall') {
      await transferCall(s, tool, {});
      return !s.ended;
    }
    const name = toolName(tool);
    if (!name) {
      s.log(`A hook's ${String(tool.type)} tool is not run by the local platform`, 'WARN');
      return true;
    }
    await runToolCall(s, tool, { id: toolCallId(), name, arguments: '{}' });
    return !s.ended;
  }
}
