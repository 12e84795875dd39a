// ESLint flat config: the recommended sets of ESLint, typescript-eslint and eslint-plugin-svelte, run by
// `npm run check` (and so by `npm test` and CI). Only rules that clash with a deliberate project idiom are changed.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

export default defineConfig(
  {
    // Build output, installed packages, Python tooling, and generated or downloaded files (see .gitignore).
    ignores: [
      'dist/**',
      '**/dist/**',
      'node_modules/**',
      '.library/**',
      '**/py/**',
      'public/ort/**',
      'public/models/**',
      'test-results/**',
      '.tmp/**',
      'models/embedded/work/**',
      'models/*/work/**',
      'models/*/onnx/**',
      'organisms/work/**',
      // Scratch files (t.tmp.ts and the like) that are never committed.
      '**/*.tmp.*',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  svelte.configs.recommended,
  {
    // The code runs in the page, in web workers and in Node (CLI, bench, tests, build scripts).
    languageOptions: {
      globals: { ...globals.browser, ...globals.worker, ...globals.node },
    },
  },
  {
    // `<script lang="ts">` in components and runes modules (*.svelte.ts) are parsed by typescript-eslint.
    files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
    languageOptions: {
      parserOptions: {
        parser: tseslint.parser,
        extraFileExtensions: ['.svelte'],
        svelteConfig,
      },
    },
  },
  {
    files: ['**/*.svelte'],
    rules: {
      // Types in `<script lang="ts">` are not globals; svelte-check resolves names, as typescript-eslint advises for TS.
      'no-undef': 'off',
      // Svelte 5 trims whitespace at the edges of {#if} blocks, so `{' '}` and `{' · '}` are how the markup keeps it.
      'svelte/no-useless-mustaches': 'off',
    },
  },
  {
    rules: {
      // A leading `_` marks a binding kept on purpose (an interface's parameter, a `for (const _ of …)` count), and
      // `const { a: _a, ...rest } = o` is how the code drops a field from a copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
