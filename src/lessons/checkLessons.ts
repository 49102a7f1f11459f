import { existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { formatDiagnostic } from '../scenario/diagnostic';
import { loadLuaCompiler } from '../scenario/text/luaCompiler';
import { buildCatalog } from './catalog';
import { courseCatalog, isCourseFolder, readCourseFolder } from './courseFolder';
import { checkLessonRuns } from './lessonSetChecks';
import type { ScenarioRunner } from './scenarioExpectations';
import type { WorkbenchProver } from './workbenchChecks';
import { readLessonSources } from './sources';

export interface CheckReport {
  /** One `file:line:col: message (hint)` per problem, then a summary line. */
  lines: string[];
  exitCode: 0 | 1;
}

/**
 * What `npm run lessons:check [paths...]` does. With no paths it checks lessons/. A folder is
 * checked as a lessons folder; a lesson file is checked in the context of its folder (so
 * duplicate slugs and prerequisites still resolve) but only its own problems are reported.
 */
export async function checkLessons(
  paths: string[],
  run: ScenarioRunner,
  cwd: string = process.cwd(),
  /** The exhaustive proof of workbench blocks (the CLI passes `proveInProcess`; tests leave it out to stay quick). */
  prove: WorkbenchProver | null = null,
): Promise<CheckReport> {
  const targets = paths.length ? paths : ['lessons'];
  const lines: string[] = [];
  let problems = 0;
  let warnings = 0;
  let lessonCount = 0;
  let runCount = 0;
  // Scripts are compiled as the lessons are parsed, so a script that cannot compile is reported at its line.
  const compileLua = await loadLuaCompiler();

  // Group file arguments by folder so each folder is parsed once.
  const folders = new Map<string, Set<string> | 'all'>();
  for (const target of targets) {
    const abs = resolve(cwd, target);
    if (!existsSync(abs)) {
      lines.push(`${target}:1:1: no such file or folder`);
      problems++;
      continue;
    }
    if (statSync(abs).isDirectory()) {
      folders.set(abs, 'all');
    } else {
      const dir = dirname(abs);
      const current = folders.get(dir);
      if (current !== 'all') folders.set(dir, new Set([...(current ?? []), relative(cwd, abs).split('\\').join('/')]));
    }
  }

  for (const [dir, only] of folders) {
    // An instructor's course folder is checked as its site will be built: with the built-in lessons it includes.
    const course =
      only === 'all' && isCourseFolder(dir) ? readCourseFolder(dir, resolve(cwd, 'lessons'), cwd) : undefined;
    const sources = course?.sources ?? readLessonSources(dir, cwd, only === 'all' ? [] : [...only]);
    const catalog = course
      ? courseCatalog(buildCatalog(sources, { compileLua }), course)
      : buildCatalog(sources, { compileLua });
    const wanted = (file: string) => only === 'all' || only.has(file);
    const lessons = catalog.lessons.filter((l) => only === 'all' || only.has(l.file));
    // Lessons whose frontmatter is broken are not on the site, but their scenarios still run.
    const unlisted = (catalog.unlisted ?? []).filter((l) => wanted(l.file));
    const texts = new Map(sources.lessons.map((l) => [l.file, l.text]));
    const checked = await checkLessonRuns(lessons, (file) => texts.get(file), sources.readRef, run, {
      unlisted,
      ...(prove ? { prove } : {}),
    });
    const all = [...catalog.diagnostics.filter((d) => wanted(d.file)), ...checked.diagnostics];
    for (const d of all) lines.push(formatDiagnostic(d));
    warnings += all.filter((d) => d.severity === 'warning').length;
    problems += all.filter((d) => d.severity !== 'warning').length;
    lessonCount += only === 'all' ? sources.lessons.length : only.size;
    runCount += checked.runs;
  }

  if (lessonCount === 0 && problems === 0 && warnings === 0) {
    lines.push(
      `lessons:check: no lessons found in ${targets.join(', ')} (lesson files are named NN-slug.md); nothing to check`,
    );
    return { lines, exitCode: 0 };
  }
  const summary = `lessons:check: ${lessonCount} lesson${lessonCount === 1 ? '' : 's'}, ${runCount} scenario run${runCount === 1 ? '' : 's'}`;
  const warned = warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : '';
  lines.push(
    problems
      ? `${summary}, ${problems} problem${problems === 1 ? '' : 's'}${warned}`
      : `${summary}, no problems${warned}`,
  );
  return { lines, exitCode: problems ? 1 : 0 };
}
