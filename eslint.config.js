// Lint rules. Two matter most. The purity rule: the simulation core must be deterministic, so it
// may not reach for wall-clock time, randomness, timers or the DOM. The layer rules: imports flow
// one way (DESIGN.md §2), with no cycles, so each layer can be read, tested and changed alone.
import { readFileSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import globals from 'globals';

const CORE = ['src/sim/**', 'src/net/**', 'src/redis/**', 'src/actors/**', 'src/check/**', 'src/scenario/**'];

/**
 * Tests and test support may drive a layer through the layers above it (a checker's test runs a
 * whole scenario); nothing the app ships imports them.
 */
const TEST_SUPPORT = [
  '**/*.test.ts',
  '**/*.test.tsx',
  '**/*.bench.ts',
  'src/**/testing/**',
  'src/redis/differential/**',
];

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

const UI_LIBRARIES = {
  group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'zustand', 'zustand/*'],
  message: 'This layer imports no React (React owns only src/ui).',
};
const D3 = { group: ['d3', 'd3-*'], message: 'The simulation core imports no UI library.' };
const NODE_BUILTINS = {
  group: ['node:*', 'fs', 'path', 'os', 'child_process'],
  message: 'The core runs in the browser too: no Node built-ins.',
};

// The layer table of DESIGN.md §2 (src/lint/layers.json): what each folder under src/ may import
// of ours. Anything not listed is refused, with the table's reason in the message. The timeline
// draws a trace: sim's event types and time formatting, and check's pure readers of a trace.
// The reality harness runs scenarios on real processes and judges them with the core's checkers.
const { folders: FOLDERS, layers: LAYERS } = JSON.parse(
  readFileSync(new URL('./src/lint/layers.json', import.meta.url), 'utf8'),
);

/** no-restricted-imports patterns refusing every folder `layer` may not import. */
function layerPatterns(layer) {
  const { may, why } = LAYERS[layer];
  const whole = new Set(may.filter((m) => !m.includes('/')));
  const files = may.filter((m) => m.includes('/'));
  return FOLDERS.filter((f) => f !== layer && !whole.has(f)).map((f) => ({
    // `../x/...` from the folder's top, `../../x/...` from a subfolder; a file-level allowance
    // (check/beliefs) is carved out of its folder.
    group: [
      `../${f}/**`,
      `../../${f}/**`,
      `../../../${f}/**`,
      ...files.filter((m) => m.startsWith(`${f}/`)).flatMap((m) => [`!../${m}`, `!../../${m}`, `!../../../${m}`]),
    ],
    message: `Layer rule (DESIGN.md §2): ${why}`,
  }));
}

const extraPatterns = {
  sim: [D3, NODE_BUILTINS, UI_LIBRARIES],
  net: [D3, NODE_BUILTINS, UI_LIBRARIES],
  redis: [D3, NODE_BUILTINS, UI_LIBRARIES],
  actors: [D3, NODE_BUILTINS, UI_LIBRARIES],
  check: [D3, NODE_BUILTINS, UI_LIBRARIES],
  scenario: [D3, NODE_BUILTINS, UI_LIBRARIES],
  lessons: [UI_LIBRARIES],
  timeline: [UI_LIBRARIES],
  cli: [UI_LIBRARIES],
  reality: [D3, UI_LIBRARIES],
};

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'test-results',
      'playwright-report',
      'coverage',
      '**/*.tmp.*',
      'src/lint/fixtures/**',
      'src/redis/lua/wasm/redisLua51.js',
    ],
  },
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
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Suspense holds content that has loaded back for 300 ms once its fallback showed: most
      // of what a learner waits for a player, a page or a dashboard.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react',
              importNames: ['lazy', 'Suspense'],
              message:
                'Load a chunk with loader()/<Loaded> (src/ui/layout/loader.tsx): Suspense holds loaded content back for up to 300 ms.',
            },
          ],
        },
      ],
    },
  },
  {
    // A cycle makes two modules one: neither can be read, tested or loaded without the other.
    // Type-only imports count too (the shared import-cycles tool counts them).
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
      // Without these import-x reads only .js files when it follows imports, and sees no cycle.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: CORE,
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', ...impureGlobals],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the seeded PRNG (src/sim/prng.ts).' },
      ],
    },
  },
  {
    // The timeline is handed its document (the svg's ownerDocument), so it can draw in Node too.
    files: ['src/timeline/**'],
    ignores: [...TEST_SUPPORT, 'src/timeline/bench/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['document', 'window', 'navigator', 'requestAnimationFrame', 'cancelAnimationFrame', 'matchMedia'].map(
          (name) => ({
            name,
            message: "Use the svg's ownerDocument (and its defaultView): the timeline is handed its document.",
          }),
        ),
      ],
    },
  },
  {
    // "sim types only": the timeline draws a finished trace, so of the kernel it needs the event
    // types, the way times are written (sim/time) and pausable work (sim/steps), never the kernel itself.
    files: ['src/timeline/**'],
    ignores: TEST_SUPPORT,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../sim/**',
                '../../sim/**',
                '!../sim/time',
                '!../../sim/time',
                '!../sim/steps',
                '!../../sim/steps',
              ],
              allowTypeImports: true,
              message:
                'Layer rule (DESIGN.md §2): src/timeline imports only types from src/sim (and sim/time to write times, sim/steps to pause long work): use `import type`.',
            },
          ],
        },
      ],
    },
  },
  ...Object.keys(LAYERS).map((layer) => ({
    files: [`src/${layer}/**`],
    ignores: TEST_SUPPORT,
    rules: { 'no-restricted-imports': ['error', { patterns: [...layerPatterns(layer), ...extraPatterns[layer]] }] },
  })),
  // Inside scenario/, text becomes a run in order (src/scenario/README.md): schema/ reads neither
  // text/ nor running/, and text/ does not read running/. The layer's own patterns are repeated
  // because a later block's options replace an earlier block's, they do not add to them.
  ...Object.entries({ schema: ['text', 'running'], text: ['running'] }).map(([sub, later]) => ({
    files: [`src/scenario/${sub}/**`],
    ignores: TEST_SUPPORT,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...layerPatterns('scenario'),
            ...extraPatterns.scenario,
            {
              group: later.map((l) => `../${l}/**`),
              message: `scenario/${sub} comes before ${later.join(' and ')} (src/scenario/README.md): move what both need down a step.`,
            },
          ],
        },
      ],
    },
  })),
  {
    // Test support is for tests: the app never imports it.
    files: ['src/**'],
    ignores: [...TEST_SUPPORT, 'src/bench/**', ...Object.keys(LAYERS).map((l) => `src/${l}/**`)],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/testing/**'],
              message: 'src/testing and */testing/ are test support: only tests and benches import them.',
            },
          ],
        },
      ],
    },
  },
);
