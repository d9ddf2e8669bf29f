// The operations every visitors store offers, whether a local file or the hosted table.
import type { Visitor, VisitorPatch } from './model.js';

/** Where visitors live; every method throws VisitorError on failure. */
export interface VisitorStore {
  /** Human description of the store for messages, e.g. `./visitors.json` or the database URL. */
  readonly location: string;
  /** True for the hosted table, false for the local file. */
  readonly hosted: boolean;
  /** Every visitor. */
  list(): Promise<Visitor[]>;
  /** One visitor, or undefined when there is none with that slug. */
  get(slug: string): Promise<Visitor | undefined>;
  /** Adds visitors; all or none: refuses (kind `exists`) if any slug is taken. */
  create(visitors: Visitor[]): Promise<Visitor[]>;
  /** Changes visitors; refuses (kind `not-found`) before writing anything if any slug is missing. */
  update(patches: VisitorPatch[]): Promise<Visitor[]>;
  /** Removes visitors; refuses (kind `not-found`) before writing anything if any slug is missing. */
  delete(slugs: string[]): Promise<void>;
}
