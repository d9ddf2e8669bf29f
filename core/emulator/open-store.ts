// Opens the emulator's store: from the snapshot it is given, its data file or empty, with the
// default org (and the sample objects when asked), and the writer that keeps the data file up to date.
import { TIMELINES } from './calls/index.js';
import { seedStore } from './resources/seed.js';
import { ensureDefaultOrg } from './store/default-org.js';
import { DataFileError, DataFileWriter, loadDataFile } from './store/persist.js';
import { Store } from './store/store.js';
import type { Rec, Snapshot } from './store/store.js';

/** Objects nothing changes any more except through the store (touch, replace): log lines and ended calls. */
function settled(collection: string, rec: Rec): boolean {
  return collection === 'log' || collection === TIMELINES || (collection === 'call' && rec.status === 'ended');
}

/** The store of a starting emulator, its data file's writer (`file` only) and how many objects it loaded; rejects with a DataFileError for a file it cannot read or write. */
export async function openStore(
  file: string | undefined,
  seed: boolean,
  initial: Snapshot | undefined,
  warn: (line: string) => void,
): Promise<{ store: Store; writer: DataFileWriter | undefined; loaded: number }> {
  const snapshot = initial ? structuredClone(initial) : file ? await loadDataFile(file) : undefined;
  const store = new Store(snapshot);
  const loaded = Object.values(snapshot?.collections ?? {}).reduce((n, recs) => n + recs.length, 0);
  let changed = ensureDefaultOrg(store);
  if (seed) changed = seedStore(store) || changed;
  const writer = file
    ? new DataFileWriter(file, () => store.snapshotBytes(settled), {
        onTrouble: (err) =>
          warn(
            `voice emulator: cannot write the data file ${file} (${(err as NodeJS.ErrnoException).code ?? err.message}): changes are kept in memory and written as soon as it can; retrying every second.\n`,
          ),
        onRecovered: () => warn(`voice emulator: the data file ${file} is written again; nothing was lost.\n`),
      })
    : undefined;
  // Write at once when new, so an unwritable path fails at start rather than on the first change.
  if (writer && (changed || !snapshot || initial)) {
    await writer.flush().catch((err: unknown) => {
      writer.stop();
      throw new DataFileError(file as string, `cannot be written (${(err as Error).message})`);
    });
  }
  return { store, writer, loaded };
}
