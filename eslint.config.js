// Lint rules for every TypeScript and React file in the repository.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
    // core is a package: everything outside it imports core as `voice-agent-core/<entry>`, an entry
    // point core/package.json names (scripts/lint-boundaries.test.ts shows this rule failing).
    files: ['cli/**', 'web/**', 'bench/**', 'examples/**', 'scripts/**', 'supabase/**', 'audio/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+core/', message: "Import core as 'voice-agent-core/<entry>' (an entry point of core/package.json), never by relative path." }] },
      ],
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
