import { resolve } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import { formatDiagnostic } from '../scenario/diagnostic';
import { buildCatalog } from './catalog';
import { mergeSources, readLessonSources } from './sources';
import type { Catalog } from './types';
import { writeSchemaFiles } from './writeSchemas';

const VIRTUAL_ID = 'virtual:lessons';
const RESOLVED_ID = '\0virtual:lessons';

export interface LessonsPluginOptions {
  /** The lessons folder, relative to the Vite root (default `lessons`). */
  dir?: string;
  /**
   * Extra folders whose lessons join the catalog, e.g. test fixtures. The production build
   * passes none, so fixtures never reach the published site.
   */
  extraDirs?: string[];
}

/**
 * Parses every lesson at build time and serves the result as `virtual:lessons`
 * (`courses`, `lessons`, `diagnostics`). In `vite dev`, saving a lesson, a sidecar scenario or
 * courses.yaml re-parses and hot-updates the page, and validation problems appear in the page.
 * It also regenerates lessons/*.schema.json when the schemas change.
 */
export function lessonsPlugin(options: LessonsPluginOptions = {}): Plugin {
  let root = process.cwd();
  const dirs = () => [options.dir ?? 'lessons', ...(options.extraDirs ?? [])].map((d) => resolve(root, d));
  let warnedOnce = false;

  const load = (): Catalog => {
    const [main, ...extra] = dirs().map((d) => readLessonSources(d, root));
    return buildCatalog(extra.reduce(mergeSources, main!));
  };

  const reload = (server: ViteDevServer, file: string) => {
    if (!dirs().some((d) => file.startsWith(d)) || file.endsWith('.schema.json')) return false;
    const mod = server.moduleGraph.getModuleById(RESOLVED_ID);
    if (mod) void server.reloadModule(mod);
    return true;
  };

  return {
    name: 'lockstep-lessons',
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      writeSchemaFiles(resolve(root, options.dir ?? 'lessons'));
      for (const d of dirs()) this.addWatchFile(d);
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const catalog = load();
      if (catalog.diagnostics.length && !warnedOnce) {
        this.warn(`${catalog.diagnostics.length} lesson problem(s):\n${catalog.diagnostics.map(formatDiagnostic).join('\n')}`);
        warnedOnce = this.meta.watchMode;
      }
      return [
        `export const courses = ${JSON.stringify(catalog.courses)};`,
        `export const lessons = ${JSON.stringify(catalog.lessons)};`,
        `export const diagnostics = ${JSON.stringify(catalog.diagnostics)};`,
      ].join('\n');
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
      // Lesson files are not modules; re-parsing the virtual module is the whole update.
      if (reload(server, file)) return [];
      return undefined;
    },
  };
}
