// `--seed`: sample objects from data/seed.json, so a newcomer sees data at once. Seed
// objects keep their ids (docs and tests can name them) and are added only when missing.
import seed from './data/seed.json' with { type: 'json' };
import type { Store } from '../store/store.js';

type Sample = Record<string, unknown> & { id: string };

/** Ids of the seed objects, by collection. */
export const SEED = seed as unknown as Readonly<Record<string, readonly Sample[]>>;

/**
 * Calls get times relative to now so analytics over the last week include them. The sample's
 * `durationSeconds` only sets those times: a stored call has no such field on the platform. A
 * campaign's `startsInDays` likewise sets its `schedulePlan.earliestAt` (it waits for that day).
 */
function timed(sample: Sample, index: number): Sample {
  const { durationSeconds, startsInDays, ...call } = sample;
  if (typeof startsInDays === 'number') return { ...call, schedulePlan: { earliestAt: new Date(Date.now() + startsInDays * 86_400_000).toISOString() } };
  if (typeof durationSeconds !== 'number') return sample;
  if (call.startedAt) return call;
  const ended = Date.now() - (index + 1) * 3_600_000;
  return { ...call, startedAt: new Date(ended - durationSeconds * 1000).toISOString(), endedAt: new Date(ended).toISOString() };
}

/** Adds the seed objects that are not there yet; true when anything was added. */
export function seedStore(store: Store): boolean {
  let added = false;
  for (const [collection, samples] of Object.entries(SEED)) {
    samples.forEach((sample, i) => {
      if (store.get(collection, sample.id)) return;
      store.insert(collection, timed(sample, i), { id: sample.id });
      added = true;
    });
  }
  return added;
}
