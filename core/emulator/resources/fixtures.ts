// Sample data the emulator answers from: the public voice library and third-party provider
// data (locations, workflows, hooks), plus the seed objects for `--seed`.
import voices from './data/voices.json' with { type: 'json' };
import providers from './data/providers.json' with { type: 'json' };
import type { Rec } from '../store/store.js';

/** A public voice of the sample voice library. */
export type LibraryVoice = Rec & { provider: string; providerId: string; name: string; gender?: string; accent?: string; language?: string; languageCode?: string; description?: string };

/** Sample data of one third-party provider. */
export interface ProviderData {
  locations: Record<string, unknown>[];
  workflows: Array<Record<string, unknown> & { id: string; locationId?: string }>;
  hooks: Record<string, Record<string, unknown>[]>;
}

/** Every sample library voice. */
export const LIBRARY: readonly LibraryVoice[] = voices as LibraryVoice[];

/** Sample data by provider name (e.g. `gohighlevel`). */
export const PROVIDERS: Readonly<Record<string, ProviderData>> = providers as Record<string, ProviderData>;
