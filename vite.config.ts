import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { runnerImport } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// Our own plugins are TypeScript that imports the lesson parser. Loading them through Vite's
// module runner (rather than a static import) keeps the config bundle free of extensionless
// imports, which Vite's future native config loader would reject with a warning on every run.
async function local<T>(path: string): Promise<T> {
  const { module } = await runnerImport<T>(fileURLToPath(new URL(path, import.meta.url)));
  return module;
}
type LessonsModule = typeof import('./src/lessons/vitePlugin');
type CspModule = typeof import('./src/ui/build/cspPlugin');
type FirstRunsModule = typeof import('./src/ui/build/firstRunsPlugin');

// Test-only lessons (quiz mechanics, an injection attempt) join the catalog only when a build
// asks for them; the published site never contains them.
const withFixtures = process.env.LOCKSTEP_FIXTURES === '1';
// An instructor's course folder (with a course.yaml): `LOCKSTEP_COURSE=../my-course npm run dev` or `npm run build`.
const course = process.env.LOCKSTEP_COURSE;

// base './' keeps every asset URL relative, so dist/ works from any sub-path of any static host.
export default defineConfig({
  base: './',
  plugins: [
    react(),
    local<LessonsModule>('./src/lessons/vitePlugin.ts').then((m) =>
      m.lessonsPlugin({ extraDirs: withFixtures ? ['src/lessons/fixtures/e2e'] : [], ...(course ? { course } : {}) }),
    ),
    // Each lesson's first run, computed at build time so the first player need not wait for the worker.
    local<FirstRunsModule>('./src/ui/build/firstRunsPlugin.ts').then((m) => m.firstRunsPlugin()),
    local<CspModule>('./src/ui/build/cspPlugin.ts').then((m) => m.cspPlugin()),
    VitePWA({
      // A new version waits for the learner to accept it, so nothing is swapped mid-lesson.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icon.svg'],
      manifest: {
        name: 'Lockstep',
        short_name: 'Lockstep',
        description: 'Learn distributed locks with Redis by breaking them.',
        theme_color: '#1f4e5f',
        background_color: '#fbfaf7',
        display: 'standalone',
        start_url: './',
        scope: './',
        icons: [{ src: 'icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,wasm,webmanifest}'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        navigateFallback: null,
      },
    }),
  ],
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      // The build's warnings are for lesson problems and real surprises; the bundler's plugin
      // timings say only that a 4 s build spends most of it computing lessons' first runs.
      checks: { bundlerTimings: false },
    },
  },
  // Module workers, split into chunks: the simulation worker's entry starts loading the Lua VM
  // while the simulator's code is still downloading (src/ui/worker/simulationWorker.ts).
  worker: { format: 'es' },
  test: {
    include: ['src/**/*.test.ts'],
    // The reality check (src/reality) runs real redis-server and client processes on real
    // timers, some with a few ms of margin: it runs as its own CI step, on a machine not also
    // running every other test file (.ci/test.sh sets LOCKSTEP_REALITY).
    exclude: [...configDefaults.exclude, ...(process.env.LOCKSTEP_REALITY ? [] : ['src/reality/**'])],
    environment: 'node',
    // Vitest keeps a core free by default, which on a 2-core CI machine is one worker. Every core
    // runs test files instead (2 cores: 104 s → 76–80 s); the few tests that time themselves (a
    // hostile paste refused within 500 ms of CPU time, a watchdog within 1 s) have room to spare.
    maxWorkers: availableParallelism(),
    // Test files share their worker's modules rather than each importing the whole engine again:
    // importing took 247 s of the suite's CPU (175 files) and takes 69 s so. No test mocks a
    // module or a global, and the core keeps no state between runs that a test could see
    // (issue 33's module caches are per run or pure); the whole suite passes in one worker, in
    // one process, in file order.
    isolate: false,
    // A test asserts behaviour, not the machine's speed: Vitest's 5 s (tests) and 10 s (hooks)
    // defaults failed tests that take 3 s on an idle machine (a 50-lane timeline drawn in
    // linkedom, a Lua budget spent six times) once a 2-core runner was at load 9. The tests whose
    // point is time say so with their own bounds; these are only the point past which a test is
    // taken to hang.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
