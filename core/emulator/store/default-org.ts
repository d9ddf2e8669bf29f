// The default org and its owner: every store has them (on first start, or added to an old data
// file), and the emulator's one user ("you") joins every new org too. Members of org X live in
// the collection `org/X/user`.
import type { Store } from './store.js';

/** The email of the emulator's own user. */
export const YOUR_EMAIL = 'you@example.com';

/** The collection of org `orgId`'s members. */
export function members(orgId: string): string {
  return `org/${orgId}/user`;
}

/** Adds the emulator's own user to org `orgId` as its admin. */
export function addYou(store: Store, orgId: string): void {
  store.insert(members(orgId), { email: YOUR_EMAIL, fullName: 'You (local emulator)', role: 'admin' }, { id: store.userId, scoped: false });
}

/** Makes sure the default org and its owner exist (on first start, or in an old data file). */
export function ensureDefaultOrg(store: Store): boolean {
  if (store.get('org', store.orgId)) return false;
  store.insert('org', { name: 'Local emulator org', hipaaEnabled: false, concurrencyLimit: 10, channel: 'default' }, { id: store.orgId, scoped: false });
  addYou(store, store.orgId);
  return true;
}
