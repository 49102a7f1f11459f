/**
 * `npm run reality -- <lesson.md#scenario-id | scenario.yaml> [--scale F] [--actions file.json] [--out run.json]`
 *
 * Runs a scenario on real processes (redis-server, one Node process per lock client, the
 * resource as an HTTP service; see src/reality/README.md) and prints its verdicts beside the
 * simulator's for the same scenario. `--actions` adds a learner's actions (the JSON list
 * `npm run sim -- --actions` reads) to both runs, after the scenario's own script. Exits 0 when every verdict agrees, 1 when one differs,
 * 2 on bad input, 3 when the harness cannot run this scenario yet (each missing part named).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { UnsupportedScenario } from '../reality/support';
import { realityCheck } from '../reality/realityCheck';
import { describeSensitivity } from '../reality/timingSensitivity';
import { formatVerdictTable } from '../reality/report';
import { realRunText } from '../reality/runFile';
import { withActions } from '../scenario/schema/scriptActions';
import { loadActions, loadScenario } from './loadScenario';

const USAGE =
  'usage: npm run reality -- <lesson.md#scenario-id | scenario.yaml> [--scale F] [--actions file.json] [--out run.json]';
/** Real seconds per scenario second by default: a 20 s scenario takes 5 s, cheap enough for CI. */
const DEFAULT_SCALE = 0.25;

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      allowPositionals: true,
      options: {
        scale: { type: 'string' },
        actions: { type: 'string' },
        out: { type: 'string' },
        'break-fencing': { type: 'boolean' },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = args;
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  const scale = values.scale === undefined ? DEFAULT_SCALE : Number(values.scale);
  if (!(scale > 0 && scale <= 10)) {
    console.error(
      `--scale must be a number above 0 and at most 10 (real seconds per scenario second), got '${values.scale}'`,
    );
    return 2;
  }
  const loaded = loadScenario(positionals[0]!);
  if (!loaded.ok) {
    for (const problem of loaded.problems) console.error(problem);
    return 2;
  }
  let { scenario } = loaded;
  let learnerSteps: Set<(typeof scenario.script)[number]> | undefined;
  if (values.actions) {
    const read = loadActions(values.actions, scenario);
    if (!read.ok) {
      for (const problem of read.problems) console.error(problem);
      return 2;
    }
    const own = new Set(scenario.script);
    scenario = withActions(scenario, read.actions);
    learnerSteps = new Set(scenario.script.filter((step) => !own.has(step)));
  }
  let check;
  try {
    check = await realityCheck(scenario, { scale, breakFencing: values['break-fencing'] === true, learnerSteps });
  } catch (error) {
    if (!(error instanceof UnsupportedScenario)) throw error;
    console.error(`${scenario.id}: ${error.message}`);
    return 3;
  }
  const { run: real, pairs, differ } = check;
  console.log(
    `${scenario.id} on real processes at scale ${scale}: ${(real.wallMs / 1000).toFixed(1)} s, ${real.trace.length} events, ended ${real.ended}${real.unfinished ? ` (${real.unfinished})` : ''}, script at worst ${real.scheduleSlipMs.toFixed(1)} ms late (scenario time)`,
  );
  console.log(formatVerdictTable(pairs));
  if (check.sensitivity) console.log(describeSensitivity(check.sensitivity));
  if (values.out) {
    // The site opens it at #/recorded: the timeline of the real run, and both sides' verdicts.
    writeFileSync(
      values.out,
      realRunText({
        scenario: scenario.id,
        scale,
        ended: real.ended,
        wallMs: Math.round(real.wallMs),
        verdicts: { simulator: check.simulator, reality: check.reality },
        trace: real.trace,
      }),
    );
    console.log(`trace written to ${values.out}: open it on the site's recorded-run page (#/recorded)`);
  }
  if (differ.length) console.error(`verdicts differ: ${differ.join(', ')}`);
  return differ.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.stack ?? error.message);
    process.exit(2);
  },
);
