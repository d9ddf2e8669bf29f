// A small typed event emitter with the EventEmitter method names apps already use. Unlike
// Node's, emitting `error` with nobody listening is a no-op, and a throwing listener is logged
// instead of breaking the code that emitted.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;

/** Typed event emitter: `on`, `once`, `off` and the EventEmitter aliases. */
export class Emitter<Events extends { [K in keyof Events]: Listener }> {
  private registry = new Map<keyof Events, Array<{ fn: Listener; once: boolean }>>();
  private maxListeners = 10;
  private warned = new Set<keyof Events>();

  /** Adds a listener. */
  on<E extends keyof Events>(event: E, listener: Events[E]): this {
    return this.add(event, listener, false);
  }

  /** Adds a listener that runs at most once. */
  once<E extends keyof Events>(event: E, listener: Events[E]): this {
    return this.add(event, listener, true);
  }

  /** Alias of on(). */
  addListener<E extends keyof Events>(event: E, listener: Events[E]): this {
    return this.add(event, listener, false);
  }

  /** Removes one registration of a listener. */
  off<E extends keyof Events>(event: E, listener: Events[E]): this {
    const list = this.registry.get(event);
    const index = list ? list.findIndex((entry) => entry.fn === listener) : -1;
    if (list && index >= 0) list.splice(index, 1);
    if (list && list.length === 0) this.registry.delete(event);
    return this;
  }

  /** Alias of off(). */
  removeListener<E extends keyof Events>(event: E, listener: Events[E]): this {
    return this.off(event, listener);
  }

  /** Removes every listener of one event, or of all events. */
  removeAllListeners(event?: keyof Events): this {
    if (event === undefined) this.registry.clear();
    else this.registry.delete(event);
    return this;
  }

  /** Number of listeners of one event, or of all events. */
  listenerCount(event?: keyof Events): number {
    if (event !== undefined) return this.registry.get(event)?.length ?? 0;
    let total = 0;
    for (const list of this.registry.values()) total += list.length;
    return total;
  }

  /** Adds a listener before the others. */
  prependListener<E extends keyof Events>(event: E, listener: Events[E]): this {
    this.add(event, listener, false);
    this.registry.get(event)?.unshift(this.registry.get(event)?.pop() as { fn: Listener; once: boolean });
    return this;
  }

  /** Adds a run-once listener before the others. */
  prependOnceListener<E extends keyof Events>(event: E, listener: Events[E]): this {
    this.add(event, listener, true);
    this.registry.get(event)?.unshift(this.registry.get(event)?.pop() as { fn: Listener; once: boolean });
    return this;
  }

  /** Copies of the listeners of one event (EventEmitter's listeners()). */
  listeners<E extends keyof Events>(event: E): Array<Events[E]> {
    return (this.registry.get(event) ?? []).map((entry) => entry.fn as Events[E]);
  }

  /** Same as listeners(): once-wrappers are not exposed. */
  rawListeners<E extends keyof Events>(event: E): Array<Events[E]> {
    return this.listeners(event);
  }

  /** Names of the events that have listeners. */
  eventNames(): Array<keyof Events> {
    return [...this.registry.keys()];
  }

  /** Sets the count above which adding a listener warns about a likely leak (0: never). */
  setMaxListeners(count: number): this {
    this.maxListeners = count;
    return this;
  }

  /** The leak-warning threshold (10 by default, as EventEmitter). */
  getMaxListeners(): number {
    return this.maxListeners;
  }

  /** Calls every listener of the event; returns whether there was any. Never throws. */
  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): boolean {
    const list = this.registry.get(event);
    if (!list) return false;
    for (const entry of [...list]) {
      if (entry.once) this.off(event, entry.fn as Events[E]);
      try {
        entry.fn(...args);
      } catch (error) {
        console.error(`[webcall] a '${String(event)}' listener threw`, error);
      }
    }
    return true;
  }

  private add<E extends keyof Events>(event: E, fn: Listener, once: boolean): this {
    const list = this.registry.get(event) ?? [];
    list.push({ fn, once });
    this.registry.set(event, list);
    if (this.maxListeners > 0 && list.length > this.maxListeners && !this.warned.has(event)) {
      this.warned.add(event);
      console.warn(`[webcall] ${list.length} '${String(event)}' listeners added: possible leak (setMaxListeners to raise the limit)`);
    }
    return this;
  }
}
