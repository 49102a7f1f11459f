import { checkLessons } from '../lessons/checkLessons';
import { runScenarioTrace } from '../scenario/running/run';

/**
 * `npm run lessons:check [paths...]`: validates lessons (frontmatter, blocks, references,
 * scenarios) and runs every scenario headless against its `expect`. Prints one
 * `file:line:col: message (hint)` per problem and exits 1 if there is any.
 */
async function main(): Promise<void> {
  const report = await checkLessons(process.argv.slice(2), runScenarioTrace);
  // One stream, so problems and the summary stay in order when piped.
  for (const line of report.lines) console.log(line);
  process.exitCode = report.exitCode;
}

void main();
