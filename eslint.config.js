import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import boundaries from './tools/boundaries/eslint-rule.mjs';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', '**/.data/**', '**/coverage/**', 'tests/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  // Every regular expression in every workspace (SPA included): one with super-linear backtracking let a
  // 15.9 KB e-mail field hold the bff's event loop for 0.35 s. Errors, not warnings.
  regexp.configs.recommended,
  {
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      // Style only, and not wanted: an explicit [A-Za-z0-9_-] names the accepted alphabet of a token,
      // file name or secret at a glance; an `i` flag changes every class of the pattern at once.
      'regexp/use-ignore-case': 'off',
    },
  },
  {
    // Workspace arrows (contracts ← db ← services; the SPA on contracts only): tools/boundaries/graph.mjs;
    // no import cycle between any two files: tools/boundaries/cycles.mjs; queries only in db/ and
    // repository.ts files: tools/boundaries/sql-home.mjs.
    plugins: { boundaries },
    rules: { 'boundaries/workspace-imports': 'error', 'boundaries/no-cycle': 'error', 'boundaries/sql-home': 'error' },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Tests sit beside the code they test; shipped code never imports them or a workspace's test kit
    // (src/test/, testing*.ts, @media-site/<ws>/testing*), so no bundle or image carries test code.
    // storage/src/s3-local.ts is the test S3 server run as a process (STORAGE=s3 npm start, compose's stand-in).
    files: ['*/src/**/*.{ts,tsx}', 'tools/simulator/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', '**/test/**', '**/testing*.ts', 'tests/**', 'storage/src/s3-local.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(?:^|/)(?:test|testing[^/]*)(?:/|$)|\\.test$', message: 'test code: import it from tests only' }] },
      ],
    },
  },
  {
    // The console grows by named parts in its screen's folder, not by a longer function.
    files: ['frontend/src/admin/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
