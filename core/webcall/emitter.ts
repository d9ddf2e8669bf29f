// A small typed event emitter with the EventEmitter method names apps already use. Unlike
// Node's, emitting `error` with nobody listening is a no-op, and a throwing listener is logged
// instead of breaking the code that emitted.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;

/** Typed event emitter: `on`, `once`, `off` and the EventEmitter aliases. */
export class Emitter<Events extends { [K in keyof Events]: Listener }> {
  private listeners = new Map<keyof Events, Array<{ fn: Listener; once: boolean }>>();
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
    const list = this.listeners.get(event);
    const index = list ? list.findIndex((entry) => entry.fn === listener) : -1;
    if (list && index >= 0) list.splice(index, 1);
    if (list && list.length === 0) this.listeners.delete(event);
    return this;
  }

  /** Alias of off(). */
  removeListener<E extends keyof Events>(event: E, listener: Events[E]): this {
    return this.off(event, listener);
  }

  /** Removes every listener of one event, or of all events. */
  removeAllListeners(event?: keyof Events): this {
    if (event === undefined) this.listeners.clear();
    else this.listeners.delete(event);
    return this;
  }

  /** Number of listeners of one event, or of all events. */
  listenerCount(event?: keyof Events): number {
    if (event !== undefined) return this.listeners.get(event)?.length ?? 0;
    let total = 0;
    for (const list of this.listeners.values()) total += list.length;
    return total;
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
    const list = this.listeners.get(event);
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
    const list = this.listeners.get(event) ?? [];
    list.push({ fn, once });
    this.listeners.set(event, list);
    if (this.maxListeners > 0 && list.length > this.maxListeners && !this.warned.has(event)) {
      this.warned.add(event);
      console.warn(`[webcall] ${list.length} '${String(event)}' listeners added: possible leak (setMaxListeners to raise the limit)`);
    }
    return this;
  }
}
