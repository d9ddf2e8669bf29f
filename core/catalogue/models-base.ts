// The shapes every platform object shares: open objects, stored fields, pages and patch bodies.

/** Fields any object may carry beyond the ones typed. */
export interface Open {
  [field: string]: unknown;
}

/** Fields every stored object has. */
export interface Stored extends Open {
  id: string;
  orgId: string;
  createdAt: string;
  updatedAt: string;
}

/** Paging facts of a paginated list. */
export interface PageMeta {
  itemsPerPage: number;
  totalItems: number;
  currentPage: number;
  totalPages?: number;
  hasNextPage?: boolean;
  sortOrder?: 'ASC' | 'DESC';
}

/** A page of a paginated list. */
export interface Paginated<T> {
  results: T[];
  metadata: PageMeta;
}

/** Patch body: every field optional. */
export type Update<T> = Partial<T> & Open;
