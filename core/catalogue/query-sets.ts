// Query parameter lists shared by many catalogue entries.

/** Time-window filters on creation and last update. */
export const TIME = ['createdAtGt', 'createdAtLt', 'createdAtGe', 'createdAtLe', 'updatedAtGt', 'updatedAtLt', 'updatedAtGe', 'updatedAtLe'] as const;
/** Query of plain lists: a bare array, newest first, paged by `createdAtLt`. */
export const PLAIN = ['limit', ...TIME] as const;
/** Query of paginated lists: `{ results, metadata }`, paged by `page`. */
export const PAGED = ['page', 'sortOrder', 'limit', ...TIME] as const;
