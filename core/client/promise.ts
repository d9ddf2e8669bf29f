// Promises the client hands back: awaiting gives the data; `.withResponse()` gives the data with
// the response; list promises also iterate every item across pages.
import type { ListKind } from '../catalogue/define.js';

/** The placeholder's executor: one shared function, no closure per promise. */
function settled(resolve: (value: undefined) => void): void {
  resolve(undefined);
}

/** The data of a response together with the response itself. */
export interface WithResponse<T> {
  data: T;
  /** The HTTP response (body already read into `data`). */
  response: Response;
  status: number;
  headers: Headers;
  /** The `x-request-id` header when present. */
  requestId?: string | undefined;
}

function dataOf<T>(r: WithResponse<T>): T {
  return r.data;
}

/** A Promise of the data with `.withResponse()` for status, headers and request id. */
export class ApiPromise<T> extends Promise<T> {
  #raw: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(raw: Promise<WithResponse<T>>) {
    // The base promise is a placeholder; then/catch/finally go through #raw, so a caller that
    // only uses withResponse() never gets an unhandled rejection from it.
    super(settled as (resolve: (value: T) => void) => void);
    this.#raw = raw;
  }

  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#raw.then(dataOf);
    return this.#data;
  }

  /** The data together with the response, status, headers and request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#raw;
  }

  override then<A = T, B = never>(onfulfilled?: ((value: T) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    // One derived promise per call (an `await` is one call): the data is picked in the same step.
    if (typeof onfulfilled !== 'function') return this.#parsed().then(onfulfilled, onrejected);
    return this.#raw.then((r) => onfulfilled(r.data), onrejected);
  }

  override catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#parsed().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }
}

/** Fetches one page of a list given its query. */
export type PageFetcher<Page> = (query: Record<string, unknown>) => Promise<Page>;

interface PageMetaLike {
  hasNextPage?: boolean;
  totalPages?: number;
  totalItems?: number;
  itemsPerPage?: number;
}

function itemsOf(page: unknown): unknown[] {
  if (Array.isArray(page)) return page;
  const results = (page as { results?: unknown } | null)?.results;
  return Array.isArray(results) ? results : [];
}

function lastPage(page: unknown, pageNo: number): boolean {
  const meta = (page as { metadata?: PageMetaLike } | null)?.metadata;
  if (!meta) return false;
  if (typeof meta.hasNextPage === 'boolean') return !meta.hasNextPage;
  if (typeof meta.totalPages === 'number') return pageNo >= meta.totalPages;
  if (typeof meta.totalItems === 'number' && typeof meta.itemsPerPage === 'number' && meta.itemsPerPage > 0) {
    return pageNo * meta.itemsPerPage >= meta.totalItems;
  }
  return false;
}

/**
 * A list result: awaiting gives the first page exactly as the API returns it; async iteration
 * yields every item across pages, at most `limit` of them in total.
 */
export class ListPromise<Item, Page = Item[]> extends ApiPromise<Page> implements AsyncIterable<Item> {
  readonly #kind: ListKind;
  readonly #query: Record<string, unknown>;
  readonly #fetchPage: PageFetcher<Page>;
  readonly #pageable: boolean;

  /** `pageable` is false for a plain list that takes no `createdAtLt`: its first page is all there is. */
  constructor(raw: Promise<WithResponse<Page>>, kind: ListKind, query: Record<string, unknown> | undefined, fetchPage: PageFetcher<Page>, pageable = true) {
    super(raw);
    this.#pageable = pageable;
    this.#kind = kind;
    this.#query = { ...query };
    this.#fetchPage = fetchPage;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    const limit = this.#query.limit;
    const cap = typeof limit === 'number' && limit > 0 ? limit : Infinity;
    let count = 0;
    let pageNo = Number(this.#query.page ?? 1) || 1;
    let cursor: unknown;
    let page: Page = (await this.withResponse()).data;
    for (;;) {
      const items = itemsOf(page);
      for (const item of items) {
        if (count >= cap) return;
        count += 1;
        yield item as Item;
      }
      if (count >= cap || items.length === 0 || !this.#pageable) return;
      if (this.#kind === 'plain') {
        // Next page: everything older than the last item seen.
        const next = (items[items.length - 1] as { createdAt?: unknown } | null)?.createdAt;
        if (next === undefined || next === null || next === cursor) return;
        cursor = next;
        page = await this.#fetchPage({ ...this.#query, createdAtLt: next });
      } else {
        if (lastPage(page, pageNo)) return;
        pageNo += 1;
        page = await this.#fetchPage({ ...this.#query, page: pageNo });
      }
    }
  }

  /** Every item across all pages (at most `limit`), in order. */
  async all(): Promise<Item[]> {
    const out: Item[] = [];
    for await (const item of this) out.push(item);
    return out;
  }
}
