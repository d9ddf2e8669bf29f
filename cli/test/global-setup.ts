// vitest globalSetup: one fresh build of dist/ before the CLI process tests run.
import { ensureBuilt } from './build.js';

/** Builds the CLI once per test run. */
export default function setup(): void {
  ensureBuilt();
}
