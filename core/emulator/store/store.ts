// The in-memory store: one collection of plain objects per resource, kept oldest first.
// Handlers run synchronously on one thread, so a request never sees another half done.
import { randomUUID } from 'node:crypto';

/** A stored object: the body's fields plus the server-assigned ones. */
export interface Rec {
  [field: string]: unknown;
  id: string;
  createdAt: string;
  updatedAt: string;
}

/** What the data file holds. */
export interface Snapshot {
  format: 'voice-emulator';
  version: 1;
  orgId: string;
  userId: string;
  collections: Record<string, Rec[]>;
}

class Collection {
  readonly byId = new Map<string, Rec>();
  /** Oldest first; creation times are strictly increasing, so this is also time order. */
  readonly order: Rec[] = [];
  last = 0;
}

// `__proto__` would swap an object's prototype on assignment; it is never a real field.
const SERVER_FIELDS = new Set(['id', 'orgId', 'createdAt', 'updatedAt', '__proto__']);

const COMMA = Buffer.from(',');
const CLOSE_LIST = Buffer.from(']');
const CLOSE_ALL = Buffer.from('}}');

/** Objects grouped in named collections, with ids and strictly increasing creation times. */
export class Store {
  orgId: string;
  userId: string;
  private readonly cols = new Map<string, Collection>();
  /** The encoded JSON of settled objects, written again unchanged each time the data file is written. */
  private readonly texts = new WeakMap<Rec, Buffer>();

  constructor(from?: Snapshot) {
    this.orgId = from?.orgId ?? randomUUID();
    this.userId = from?.userId ?? randomUUID();
    this.load(from);
  }

  /** Replaces everything with a snapshot's objects, in place (every holder of this store sees it). The snapshot's objects are taken over, not copied. */
  restore(from: Snapshot): void {
    this.cols.clear();
    this.orgId = from.orgId;
    this.userId = from.userId;
    this.load(from);
  }

  private load(from: Snapshot | undefined): void {
    for (const [name, recs] of Object.entries(from?.collections ?? {})) {
      const col = this.col(name);
      const sorted = [...recs].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
      for (const rec of sorted) {
        col.byId.set(rec.id, rec);
        col.order.push(rec);
        col.last = Math.max(col.last, Date.parse(rec.createdAt) || 0);
      }
    }
  }

  private col(name: string): Collection {
    let col = this.cols.get(name);
    if (!col) this.cols.set(name, (col = new Collection()));
    return col;
  }

  /**
   * Stores a new object. Server fields in `fields` are ignored; `opts.id` keeps a known id
   * (seed data) and `opts.scoped: false` leaves out `orgId` (organisations themselves).
   */
  insert(name: string, fields: Record<string, unknown>, opts: { id?: string; scoped?: boolean } = {}): Rec {
    const col = this.col(name);
    // Strictly increasing creation times let clients page with `createdAtLt` without gaps.
    const ms = Math.max(Date.now(), col.last + 1);
    col.last = ms;
    const at = new Date(ms).toISOString();
    // Built in this order (no deletes) so objects stay fast to serialise.
    const rec = { id: opts.id ?? randomUUID() } as Rec;
    if (opts.scoped !== false) rec.orgId = this.orgId;
    for (const key in fields) if (!SERVER_FIELDS.has(key)) rec[key] = fields[key];
    rec.createdAt = at;
    rec.updatedAt = at;
    col.byId.set(rec.id, rec);
    col.order.push(rec);
    return rec;
  }

  /** One object by id. */
  get(name: string, id: string): Rec | undefined {
    return this.cols.get(name)?.byId.get(id);
  }

  /** Every object of a collection, oldest first (do not mutate the array). */
  all(name: string): readonly Rec[] {
    return this.cols.get(name)?.order ?? [];
  }

  /** Replaces every non-server field of an object with `fields`. */
  replace(rec: Rec, fields: Record<string, unknown>): Rec {
    for (const key of Object.keys(rec)) if (!SERVER_FIELDS.has(key)) delete rec[key];
    for (const key in fields) if (!SERVER_FIELDS.has(key)) rec[key] = fields[key];
    return this.touch(rec);
  }

  /** Marks an object as changed now (never before its creation). */
  touch(rec: Rec): Rec {
    this.texts.delete(rec);
    rec.updatedAt = new Date(Math.max(Date.now(), Date.parse(rec.createdAt))).toISOString();
    return rec;
  }

  /** Removes an object; returns it, or undefined when it was not there. */
  remove(name: string, id: string): Rec | undefined {
    const col = this.cols.get(name);
    const rec = col?.byId.get(id);
    if (!col || !rec) return undefined;
    col.byId.delete(id);
    const at = col.order.lastIndexOf(rec);
    if (at >= 0) col.order.splice(at, 1);
    return rec;
  }

  /** Removes every object of a collection matching a predicate; returns how many went. */
  removeWhere(name: string, pred: (rec: Rec) => boolean): number {
    const col = this.cols.get(name);
    if (!col) return 0;
    // One pass, in place (holders of `all()` see the change): removing one by one costs a scan each.
    let kept = 0;
    for (const rec of col.order) {
      if (pred(rec)) col.byId.delete(rec.id);
      else col.order[kept++] = rec;
    }
    const gone = col.order.length - kept;
    col.order.length = kept;
    return gone;
  }

  /** Everything, ready to be written to the data file. */
  snapshot(): Snapshot {
    const collections: Record<string, Rec[]> = {};
    for (const [name, col] of this.cols) if (col.order.length) collections[name] = col.order;
    return { format: 'voice-emulator', version: 1, orgId: this.orgId, userId: this.userId, collections };
  }

  /**
   * `snapshot()` as compact JSON, encoded. The bytes of an object `settled` says will no longer
   * change by itself (an ended call, a log line) are kept and reused until `touch` or `replace`
   * changes it, so a large store is not serialised and encoded whole on every write.
   */
  snapshotBytes(settled: (collection: string, rec: Rec) => boolean = () => false): Buffer {
    const head = JSON.stringify({ format: 'voice-emulator', version: 1, orgId: this.orgId, userId: this.userId });
    const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)},"collections":{`)];
    let first = true;
    for (const [name, col] of this.cols) {
      if (!col.order.length) continue;
      parts.push(Buffer.from(`${first ? '' : ','}${JSON.stringify(name)}:[`));
      first = false;
      col.order.forEach((rec, i) => {
        if (i) parts.push(COMMA);
        let bytes = this.texts.get(rec);
        if (bytes === undefined) {
          bytes = Buffer.from(JSON.stringify(rec));
          if (settled(name, rec)) this.texts.set(rec, bytes);
        }
        parts.push(bytes);
      });
      parts.push(CLOSE_LIST);
    }
    parts.push(CLOSE_ALL);
    return Buffer.concat(parts);
  }
}
