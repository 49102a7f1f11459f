import { createHash } from 'node:crypto';
import { resolve, sep } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { formatDiagnostic } from '../scenario/diagnostic';
import { loadBuildLuaCompiler } from '../scenario/text/buildLuaCompiler';
import type { LuaCompiler } from '../scenario/text/luaSyntax';
import { buildCatalog } from './catalog';
import { courseCatalog, readCourseFolder } from './courseFolder';
import { withoutDrafts } from './drafts';
import { catalogIndex } from './lessonIndex';
import { mergeSources, readLessonSources } from './sources';
import type { Catalog, Lesson } from './types';
import { writeSchemaFiles } from './writeSchemas';

const INDEX_ID = 'virtual:lessons';
const RESOLVED_INDEX_ID = '\0virtual:lessons';
/** `virtual:lockstep-lesson/<slug>`: one lesson's body, a chunk of its own. */
const LESSON_PREFIX = 'virtual:lockstep-lesson/';

export interface LessonsPluginOptions {
  /** The lessons folder, relative to the Vite root (default `lessons`). */
  dir?: string;
  /**
   * Extra folders whose lessons join the catalog, e.g. test fixtures. The production build
   * passes none, so fixtures never reach the published site.
   */
  extraDirs?: string[];
  /**
   * An instructor's course folder (holding course.yaml, see courseFolder.ts): the site then shows
   * that folder's lessons and the built-in ones its course.yaml includes, and nothing else.
   * vite.config.ts takes it from LOCKSTEP_COURSE.
   */
  course?: string;
}

/** What the plugin offers other plugins (found by its name, `lockstep-lessons`). */
export interface LessonsPluginApi {
  catalog(): Catalog;
}

/**
 * Parses every lesson at build time and serves the result in two parts, so the first page does
 * not grow with the number of lessons:
 * - `virtual:lessons`, the index: `courses`, `lessons` (frontmatter plus what completion needs,
 *   see lessonIndex.ts), `diagnostics`, and `loadLesson(slug)`;
 * - `virtual:lockstep-lesson/<slug>`, one module (so one chunk) per lesson body, which
 *   `loadLesson` imports on demand.
 * In `vite dev`, saving a lesson, a sidecar scenario or courses.yaml re-parses and hot-updates
 * the index, whose loaders then point at the new bodies; validation problems appear in the page.
 * It also regenerates lessons/*.schema.json when the schemas change.
 */
export function lessonsPlugin(options: LessonsPluginOptions = {}): Plugin {
  let root = process.cwd();
  let serving = false;
  const dirs = () =>
    [options.dir ?? 'lessons', ...(options.extraDirs ?? []), ...(options.course ? [options.course] : [])].map((d) =>
      resolve(root, d),
    );
  let warnedOnce = false;
  // Every module reads the same parse: a lesson's body depends on the whole set (links to other
  // lessons become routes), so the set is parsed once per build or per edit, not once per module.
  let parsed: Catalog | undefined;
  // Loaded when the index is first asked for (the VM loads asynchronously; parsing is synchronous), so the build and
  // the dev server report a script that does not compile as lessons:check does.
  let compileLua: LuaCompiler | undefined;

  const catalog = (): Catalog => {
    if (parsed) return parsed;
    if (options.course) {
      const folder = readCourseFolder(options.course, options.dir ?? 'lessons', root);
      parsed = courseCatalog(
        buildCatalog(serving ? folder.sources : withoutDrafts(folder.sources), compileLua ? { compileLua } : {}),
        folder,
      );
      return parsed;
    }
    const [main, ...extra] = dirs().map((d) => readLessonSources(d, root));
    const sources = extra.reduce(mergeSources, main!);
    parsed = buildCatalog(serving ? sources : withoutDrafts(sources), compileLua ? { compileLua } : {});
    return parsed;
  };

  const reload = (server: ViteDevServer, file: string) => {
    if (!dirs().some((d) => file.startsWith(d)) || file.endsWith('.schema.json')) return false;
    parsed = undefined;
    const mod = server.moduleGraph.getModuleById(RESOLVED_INDEX_ID);
    if (mod) void server.reloadModule(mod);
    return true;
  };

  /**
   * The specifier the index imports a body by. In dev it carries a hash of the body: an edited
   * lesson gets a new module id, so the hot-updated index loads the new body instead of the one
   * the browser has already cached under the old id. A build needs no hash (its chunks are hashed).
   */
  const bodySpecifier = (lesson: Lesson) => {
    const id = `${LESSON_PREFIX}${lesson.frontmatter.slug}`;
    return serving ? `${id}?rev=${createHash('sha1').update(JSON.stringify(lesson)).digest('hex').slice(0, 10)}` : id;
  };

  return {
    name: 'lockstep-lessons',
    /** The parsed catalog, for other plugins (the first runs, src/ui/build/firstRunsPlugin.ts) to share this parse. */
    api: { catalog } satisfies LessonsPluginApi,
    configResolved(config) {
      root = config.root;
      serving = config.command === 'serve';
    },
    buildStart() {
      parsed = undefined;
      writeSchemaFiles(resolve(root, options.dir ?? 'lessons'));
      for (const d of dirs()) this.addWatchFile(d);
    },
    resolveId(id) {
      if (id === INDEX_ID) return RESOLVED_INDEX_ID;
      if (id.startsWith(LESSON_PREFIX)) return `\0${id}`;
      return undefined;
    },
    async load(id) {
      if (id === RESOLVED_INDEX_ID) {
        compileLua ??= await loadBuildLuaCompiler();
        const all = catalog();
        // A build publishes what learners read: an error in a published lesson stops it (test
        // fixtures break rules on purpose, and LOCKSTEP_DRAFTS=1 lets an author build a draft).
        const published = [
          resolve(root, options.dir ?? 'lessons'),
          ...(options.course ? [resolve(root, options.course)] : []),
        ];
        const blocking =
          serving || process.env.LOCKSTEP_DRAFTS === '1'
            ? []
            : all.diagnostics.filter(
                (d) => d.severity !== 'warning' && published.some((dir) => resolve(root, d.file).startsWith(dir + sep)),
              );
        if (blocking.length) {
          this.error(
            `${blocking.length} lesson problem(s) stop the build:\n${blocking.map(formatDiagnostic).join('\n')}\nFix them (npm run lessons:check lists every problem), or build a draft with LOCKSTEP_DRAFTS=1.`,
          );
        }
        if (all.diagnostics.length && !warnedOnce) {
          this.warn(
            `${all.diagnostics.length} lesson problem(s):\n${all.diagnostics.map(formatDiagnostic).join('\n')}`,
          );
          warnedOnce = this.meta.watchMode;
        }
        return indexModule(all, bodySpecifier);
      }
      if (id.startsWith(`\0${LESSON_PREFIX}`)) {
        const slug = id.slice(LESSON_PREFIX.length + 1).replace(/\?.*$/, '');
        const lesson = catalog().lessons.find((l) => l.frontmatter.slug === slug);
        // Only the index names these modules, so a missing lesson means it was renamed or removed
        // since the index was built: the page shows its "could not load" state.
        if (!lesson) this.error(`there is no lesson with slug '${slug}' (lessons in ${dirs().join(', ')})`);
        // Claims are for lessons:check; a learner's page has no use for them.
        return `export default ${JSON.stringify({ ...lesson, blocks: lesson.blocks.filter((b) => b.kind !== 'claims') })};`;
      }
      return undefined;
    },
    configureServer(server) {
      for (const d of dirs()) server.watcher.add(d);
      const onFile = (file: string) => {
        warnedOnce = false;
        reload(server, file);
      };
      server.watcher.on('add', onFile);
      server.watcher.on('unlink', onFile);
    },
    handleHotUpdate({ file, server }) {
      warnedOnce = false;
      // Lesson files are not modules; re-parsing the virtual modules is the whole update.
      if (reload(server, file)) return [];
      return undefined;
    },
  };
}

/** The index module's source: the catalog without bodies, and a loader per body. */
function indexModule(catalog: Catalog, bodySpecifier: (lesson: Lesson) => string): string {
  const index = catalogIndex(catalog);
  // Literal import() calls, so the bundler sees every body and makes each its own chunk.
  const loaders = catalog.lessons.map(
    (l) => `  ${JSON.stringify(l.frontmatter.slug)}: () => import(${JSON.stringify(bodySpecifier(l))}),`,
  );
  return [
    `export const courses = ${JSON.stringify(index.courses)};`,
    `export const lessons = ${JSON.stringify(index.lessons)};`,
    `export const diagnostics = ${JSON.stringify(index.diagnostics)};`,
    `const bodies = {\n${loaders.join('\n')}\n};`,
    'export function loadLesson(slug) {',
    '  const load = Object.hasOwn(bodies, slug) ? bodies[slug] : undefined;',
    '  return load ? load().then((m) => m.default) : Promise.reject(new Error(`there is no lesson called "${slug}"`));',
    '}',
  ].join('\n');
}
