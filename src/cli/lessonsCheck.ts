import { checkLessons } from '../lessons/checkLessons';
import { proveInProcess } from '../lessons/workbenchChecks';
import { runScenarioTrace } from '../scenario/running/run';

/**
 * `npm run lessons:check [paths...]`: validates lessons (frontmatter, blocks, references,
 * scenarios) and runs every scenario headless against its `expect`; a workbench block's recipe and
 * fix are searched by both of Break it's modes (random runs, and every schedule of one fault). Prints one
 * `file:line:col: message (hint)` per problem and exits 1 if there is any.
 */
async function main(): Promise<void> {
  const report = await checkLessons(process.argv.slice(2), runScenarioTrace, process.cwd(), proveInProcess);
  // One stream, so problems and the summary stay in order when piped.
  for (const line of report.lines) console.log(line);
  process.exitCode = report.exitCode;
}

void main();
