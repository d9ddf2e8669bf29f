// Values that cannot change. A load run sends the same assistant and phone number in every one of
// its tens of thousands of messages; it freezes them (all the way down) so that their create shape
// and their JSON can be made once and reused: a frozen value cannot change, so nothing made from it
// goes stale.
const frozen = new WeakSet<object>();

/** Freezes `value` and everything it holds, and marks it as safe to cache. Returns it. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || frozen.has(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  Object.freeze(value);
  frozen.add(value);
  return value;
}

/** True for a value `deepFreeze` froze (or a copy `frozenCopy` made). */
export function isDeepFrozen(value: unknown): value is object {
  return value !== null && typeof value === 'object' && frozen.has(value);
}

/** Freezes an object whose every value is already deep-frozen (or not an object), without walking it. */
export function frozenCopy<T extends object>(value: T): T {
  Object.freeze(value);
  frozen.add(value);
  return value;
}
