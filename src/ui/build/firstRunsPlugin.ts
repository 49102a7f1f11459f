import type { Plugin } from 'vite';
import type { LessonsPluginApi } from '../../lessons/vitePlugin';
// Imported statically, not through loadScriptEngine's import(): vite.config.ts loads this plugin
// through a module runner that is closed by the time the build asks for the runs.
import { loadLuaEngine } from '../../redis/lua';
import { computeFirstRuns, computeSandboxFirstRun, serializeFirstRuns, type FirstRuns } from './firstRuns';

const INDEX_ID = 'virtual:lockstep-first-runs';
const RESOLVED_INDEX_ID = '\0virtual:lockstep-first-runs';
/**
 * `virtual:lockstep-first-runs/first-run-<slug>`: one lesson's precomputed runs, a chunk of its
 * own, named after the id's last part (`first-run-<slug>-<hash>.js`, beside the body's `<slug>-<hash>.js`).
 */
const RUNS_PREFIX = 'virtual:lockstep-first-runs/first-run-';
/** The sandbox's first run (`first-run-sandbox-<hash>.js`); a lesson's slug has no slash, so no lesson's id can be this. */
const SANDBOX_ID = 'virtual:lockstep-first-runs/sandbox/first-run-sandbox';

/**
 * Ships each lesson's first run with the site (see firstRuns.ts), so a lesson's first player
 * shows its run without waiting for the simulation worker:
 * - `virtual:lockstep-first-runs`: `loadFirstRuns(slug)`, which fetches that lesson's runs
 *   (an empty record for a lesson that has none);
 * - `virtual:lockstep-first-runs/first-run-<slug>`: one small chunk per lesson that has runs, fetched
 *   beside the player's code once the lesson's body has arrived (main.tsx);
 * - `loadSandboxFirstRuns()`: the sandbox's opening world's run, `{ sandbox }`, a chunk of its own.
 * The lessons come from the lessons plugin (`lockstep-lessons`), which must be configured too.
 * `vite dev` ships none: every run is computed by the worker, so an edited lesson can never
 * show a stale run.
 */
export function firstRunsPlugin(): Plugin {
  let serving = false;
  let lessons: LessonsPluginApi | undefined;
  // Computed once per build, on the first request for any of these modules.
  let computed: Promise<Map<string, FirstRuns>> | undefined;

  let sandbox: Promise<FirstRuns> | undefined;

  const allRuns = (): Promise<Map<string, FirstRuns>> => {
    computed ??= loadLuaEngine().then((scripts) => {
      const bySlug = new Map<string, FirstRuns>();
      for (const lesson of lessons!.catalog().lessons) {
        const runs = computeFirstRuns(lesson, scripts);
        if (Object.keys(runs).length > 0) bySlug.set(lesson.frontmatter.slug, runs);
      }
      return bySlug;
    });
    return computed;
  };
  const sandboxRuns = (): Promise<FirstRuns> => {
    sandbox ??= loadLuaEngine().then(computeSandboxFirstRun);
    return sandbox;
  };

  return {
    name: 'lockstep-first-runs',
    configResolved(config) {
      serving = config.command === 'serve';
      lessons = config.plugins.find((p) => p.name === 'lockstep-lessons')?.api as LessonsPluginApi | undefined;
      if (!lessons)
        throw new Error(
          'firstRunsPlugin needs the lessons plugin (lessonsPlugin in src/lessons/vitePlugin.ts) in the same Vite config',
        );
    },
    buildStart() {
      computed = undefined;
      sandbox = undefined;
    },
    resolveId(id) {
      if (id === INDEX_ID) return RESOLVED_INDEX_ID;
      if (id === SANDBOX_ID) return `\0${id}`;
      if (id.startsWith(RUNS_PREFIX)) return `\0${id}`;
      return undefined;
    },
    async load(id) {
      if (id === RESOLVED_INDEX_ID) {
        if (serving)
          return 'export function loadFirstRuns() {\n  return Promise.resolve({});\n}\nexport function loadSandboxFirstRuns() {\n  return Promise.resolve({});\n}';
        // Literal import() calls, so the bundler makes each lesson's runs a chunk of its own.
        const loaders = [...(await allRuns()).keys()].map(
          (slug) => `  ${JSON.stringify(slug)}: () => import(${JSON.stringify(RUNS_PREFIX + slug)}),`,
        );
        return [
          `const runs = {\n${loaders.join('\n')}\n};`,
          'export function loadFirstRuns(slug) {',
          '  return Object.hasOwn(runs, slug) ? runs[slug]().then((m) => m.default) : Promise.resolve({});',
          '}',
          'export function loadSandboxFirstRuns() {',
          `  return import(${JSON.stringify(SANDBOX_ID)}).then((m) => m.default);`,
          '}',
        ].join('\n');
      }
      if (id === `\0${SANDBOX_ID}`)
        return `export default JSON.parse(${JSON.stringify(serializeFirstRuns(await sandboxRuns()))});`;
      if (id.startsWith(`\0${RUNS_PREFIX}`)) {
        const slug = id.slice(RUNS_PREFIX.length + 1);
        const runs = (await allRuns()).get(slug) ?? {};
        return `export default JSON.parse(${JSON.stringify(serializeFirstRuns(runs))});`;
      }
      return undefined;
    },
  };
}
