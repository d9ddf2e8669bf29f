// Lint rules for every TypeScript and React file in the repository.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readFileSync } from 'node:fs';

// core's public faces: the subpaths core/package.json exports (`./client` -> `client`).
const FACES = Object.keys(JSON.parse(readFileSync(new URL('./core/package.json', import.meta.url), 'utf8')).exports).map((key) => key.slice(2));
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Import patterns code outside core may not use: core by relative path, or a subpath core does not export. */
const CORE_FROM_OUTSIDE = [
  { regex: '^(\\.\\./)+core/', message: "Import core as 'voice-agent-core/<face>' (a public face) or '#core/<file>' (its sources, inside this repository), never by relative path." },
  {
    regex: `^voice-agent-core(?!/(${FACES.map(escapeRegex).join('|')})$)`,
    message: `voice-agent-core's published faces are ${FACES.join(', ')}; import anything else of core as '#core/<file>' (inside this repository only).`,
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'core/dist/**', 'audio/dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'web/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.tsx', 'web/src/**/*.ts', 'core/react/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.js'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    // core is a package: everything outside it imports core's public faces as
    // `voice-agent-core/<face>` and, inside this repository, any other source of core as
    // `#core/<file>` (the root package.json's private `imports`, never published with core; see
    // core/README.md). scripts/lint-boundaries.test.ts shows these rules failing.
    files: ['cli/**', 'web/**', 'bench/**', 'scripts/**', 'supabase/**', 'audio/**', 'docs/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: CORE_FROM_OUTSIDE }] },
  },
  {
    // Examples are what users copy: the published faces only.
    files: ['examples/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...CORE_FROM_OUTSIDE, { regex: '^#core/', message: "Examples import only what users can: 'voice-agent-core/<face>'." }] }],
    },
  },
  // core imports nothing outside core/: one rule per folder depth, each refusing a path that climbs out.
  ...['core/*', 'core/*/*', 'core/*/*/*', 'core/*/*/*/*'].map((glob, depth) => ({
    files: [`${glob}.ts`, `${glob}.tsx`],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/*.test-support.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'voice-agent-cli',
            { name: 'voice-agent-audio', message: "voice-agent-audio is optional: core loads it with import() when a call needs it, never with a static import (its types: declare core's own)." },
          ],
          patterns: [{ regex: `^(\\.\\./){${depth + 1},}`, message: 'core imports nothing outside core/ (cli, web, fixtures and scripts import core, never the reverse).' }],
        },
      ],
    },
  })),
  {
    // The executable is CommonJS (bin/package.json): it starts faster than an ES module entry.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
