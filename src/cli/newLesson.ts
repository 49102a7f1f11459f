/**
 * `npm run new-lesson -- "Title of the lesson" [--course <id>] [--dir <folder>]`
 *
 * Writes `NN-slug.md` with the next free number into lessons/ (or an instructor's own course
 * folder given with --dir), as a skeleton that passes `npm run lessons:check` as written. Exits 2
 * with what to change when it will not write: nothing is ever overwritten.
 */
import { parseArgs } from 'node:util';
import { writeNewLesson } from '../lessons/lessonSkeleton';

const USAGE = 'usage: npm run new-lesson -- "Title of the lesson" [--course <id>] [--dir <folder, default lessons>]';

function main(): number {
  let args;
  try {
    args = parseArgs({ allowPositionals: true, options: { course: { type: 'string' }, dir: { type: 'string' } } });
  } catch (error) {
    console.error(`new-lesson: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.positionals.length !== 1) {
    console.error(`new-lesson: give the title as one argument, in quotes\n${USAGE}`);
    return 2;
  }
  const result = writeNewLesson({
    title: args.positionals[0]!,
    dir: args.values.dir ?? 'lessons',
    ...(args.values.course ? { course: args.values.course } : {}),
  });
  if (!result.ok) {
    console.error(result.message);
    return 2;
  }
  console.log(`wrote ${result.file}; check it with npm run lessons:check -- ${result.file}`);
  return 0;
}

process.exitCode = main();
