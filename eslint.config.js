// Lint rules. The important one is the purity rule: the simulation core must be
// deterministic, so it may not reach for wall-clock time, randomness, timers or the DOM.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const CORE = ['src/sim/**', 'src/net/**', 'src/redis/**', 'src/actors/**', 'src/check/**', 'src/scenario/**'];

const impureGlobals = [
  ['Date', 'Virtual time comes from the kernel (world.now), never from Date.'],
  ['setTimeout', 'Schedule a kernel event instead of a timer.'],
  ['setInterval', 'Schedule a kernel event instead of a timer.'],
  ['clearTimeout', 'Cancel the kernel event instead.'],
  ['clearInterval', 'Cancel the kernel event instead.'],
  ['requestAnimationFrame', 'The core never renders.'],
  ['performance', 'Virtual time comes from the kernel, never from performance.now().'],
  ['crypto', 'Randomness comes from the seeded PRNG.'],
  ['window', 'The core never touches the DOM.'],
  ['document', 'The core never touches the DOM.'],
  ['localStorage', 'The core never touches browser storage.'],
].map(([name, message]) => ({ name, message }));

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'coverage', '**/*.tmp.*'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/ui/**/*.tsx', 'src/ui/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: CORE,
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', ...impureGlobals],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Use the seeded PRNG (src/sim/prng.ts).' }],
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'd3', 'd3-*'], message: 'The simulation core imports no UI library.' },
          { group: ['**/ui/**', '**/timeline/**', '**/cli/**', '**/lessons/**'], message: 'Imports flow one way: ui → timeline, lessons → scenario → check → actors → redis, net → sim.' },
          { group: ['node:*', 'fs', 'path', 'os', 'child_process'], message: 'The core runs in the browser too: no Node built-ins.' },
        ],
      }],
    },
  },
);
