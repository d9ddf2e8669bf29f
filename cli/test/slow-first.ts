// The order test files start in. Vitest starts the files it has no timings for largest first, and a
// clean clone (CI) has none, so the bench's smoke test, a small file that runs for minutes, started
// last and ran alone at the end. The slowest files start first, in this order; the rest follow as
// Vitest orders them. It buys the suite's tail (about a minute on two cores); keep the list to files
// that take half a minute or more.
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

const SLOWEST = [
  'bench/bench.test.ts',
  'scripts/packages.test.ts',
  'docs/docs.test.ts',
  'cli/test/gitops.test.ts',
  'web/e2e/webcall-local.test.ts',
  'cli/test/concurrency.test.ts',
  'cli/test/crud.test.ts',
  'web/e2e/demo-browser-call.test.ts',
];

/** Vitest's own order, with the slowest files moved to the front. */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => SLOWEST.findIndex((path) => f.moduleId.endsWith(`/${path}`));
    const slow = sorted.filter((f) => rank(f) >= 0).sort((a, b) => rank(a) - rank(b));
    return [...slow, ...sorted.filter((f) => rank(f) < 0)];
  }
}
