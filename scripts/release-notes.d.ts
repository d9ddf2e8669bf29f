// Types of scripts/release-notes.js (plain JS so the release workflow runs it with node as is).

/** The changelog with `version` cut from its Unreleased section, and that section's notes. */
export function cutRelease(text: string, version: string, date: string): { text: string; notes: string };
