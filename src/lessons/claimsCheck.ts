import {
  describeQuery,
  measure,
  unitOf,
  type ClaimVerdict,
  type EventQuery,
  type Measure,
  type RunTrace,
} from '../check/runMeasures';
import { describeCommand, replyAgrees, replyOf } from '../check/commandReplies';
import { lockMetrics } from '../check/metrics';
import { checkActions, type Action } from '../scenario/schema/actionSchema';
import { toAction } from '../scenario/schema/scriptActions';
import { didYouMean, type Diagnostic } from '../scenario/diagnostic';
import type { Scenario, ScriptAction } from '../scenario/schema/schema';
import type { Claim, ReplyMeasure } from './blocks/claims';
import { agrees, readStated, writeLike, type StatedNumber } from './statedNumber';
import type { Block, Lesson } from './types';
import { RunStopped } from './scenarioExpectations';

/** Runs a scenario with its own seed and the given learner actions, and returns its trace and verdicts. */
export type TraceRunner = (
  scenario: Scenario,
  actions: readonly Action[],
) => Promise<{ trace: RunTrace; verdicts: readonly ClaimVerdict[] }>;

/** The blocks whose text a learner reads (a model answer, a quiz's explanation): a claim may quote them too. */
const READ_BLOCKS = ['quiz', 'fill-in', 'reflect', 'match', 'checklist'];

/**
 * Checks every ```claims block: each quoted number must be in the lesson's prose, and the run
 * it names must show it. A problem with a number the run no longer shows is reported at the
 * prose, where the author will change it.
 */
export async function checkClaims(
  lessons: readonly Lesson[],
  textOf: (file: string) => string | undefined,
  run: TraceRunner,
): Promise<{ diagnostics: Diagnostic[]; runs: number }> {
  const diagnostics: Diagnostic[] = [];
  let runs = 0;
  for (const lesson of lessons) {
    const text = textOf(lesson.file) ?? '';
    const traces = new Map<Scenario, ReturnType<TraceRunner>>();
    for (const [index, block] of lesson.blocks.entries()) {
      if (block.kind !== 'claims') continue;
      const target = scenarioFor(lesson.blocks, index, block.spec.run);
      if (target === null) continue; // its scenario has problems of its own, reported already
      if (!target.ok) {
        diagnostics.push({
          file: lesson.file,
          line: block.line + 1,
          col: 1,
          message: target.message,
          hint: target.hint,
        });
        continue;
      }
      const actions = learnerActions(target.scenario, block.spec.actions);
      if (!actions.ok) {
        diagnostics.push(
          ...actions.problems.map((problem) => ({ file: lesson.file, line: block.line + 1, col: 1, ...problem })),
        );
        continue;
      }
      // A run with learner actions is its own run; the quiet run is shared by every block about it.
      let trace = actions.actions.length ? undefined : traces.get(target.scenario);
      if (!trace) {
        runs++;
        trace = run(target.scenario, actions.actions);
        if (!actions.actions.length) traces.set(target.scenario, trace);
      }
      let events: RunTrace;
      let verdicts: readonly ClaimVerdict[];
      try {
        ({ trace: events, verdicts } = await trace);
      } catch (error) {
        // A stopped run is reported once, at its scenario block (scenarioExpectations.ts).
        if (error instanceof RunStopped) continue;
        diagnostics.push({
          file: lesson.file,
          line: block.line,
          col: 1,
          message: `scenario '${target.scenario.id}' crashed the simulator: ${error instanceof Error ? error.message : String(error)}`,
          hint: 'this is a bug in Lockstep; please report it',
        });
        continue;
      }
      let metrics: ReturnType<typeof lockMetrics> | undefined;
      const metricsOnce = () => (metrics ??= lockMetrics(events));
      for (const claim of block.spec.claims)
        diagnostics.push(
          ...checkClaim(lesson.file, text, target.scenario, { events, verdicts, metrics: metricsOnce }, claim),
        );
    }
  }
  return { diagnostics, runs };
}

/** The scenario a claims block is about; null when that scenario is itself broken. */
function scenarioFor(
  blocks: readonly Block[],
  index: number,
  id: string | null,
): { ok: true; scenario: Scenario } | { ok: false; message: string; hint: string } | null {
  const brokenRun = (b: Block) => b.kind === 'invalid' && (b.lang === 'scenario' || b.lang === 'dashboard');
  if (id === null) {
    const above = blocks.slice(0, index).findLast((b) => b.kind === 'scenario' || brokenRun(b));
    if (above?.kind === 'scenario') return { ok: true, scenario: above.scenario };
    if (above) return null;
    return {
      ok: false,
      message: 'claims about no run: there is no scenario above this block',
      hint: "put the claims after the scenario they describe, or name it with 'run: <scenario id>'",
    };
  }
  const runs = blocks.flatMap((b) => (b.kind === 'scenario' ? [b.scenario] : []));
  const named = runs.find((scenario) => scenario.id === id);
  if (named) return { ok: true, scenario: named };
  if (blocks.some(brokenRun)) return null;
  const ids = runs.map((scenario) => scenario.id);
  const guess = didYouMean(id, ids);
  return {
    ok: false,
    message: `no scenario '${id}' in this lesson`,
    hint: guess ? `did you mean '${guess}'?` : `scenarios here: ${ids.join(', ') || 'none'}`,
  };
}

/** The claims block's actions as the player would apply them, or what in them names nobody in the scenario. */
function learnerActions(
  scenario: Scenario,
  steps: readonly ScriptAction[],
): { ok: true; actions: Action[] } | { ok: false; problems: { message: string; hint: string }[] } {
  const actions = steps.map((step) => ({ ...toAction(step), at: step.at }) as Action).sort((a, b) => a.at - b.at);
  const problems: { message: string; hint: string }[] = [];
  checkActions(scenario, actions, (path, message, hint) =>
    problems.push({
      message: `actions[${path[0]}]: ${message}`,
      hint: hint ?? 'name an actor, node or link the scenario has',
    }),
  );
  return problems.length ? { ok: false, problems } : { ok: true, actions };
}

interface RunFacts {
  events: RunTrace;
  verdicts: readonly ClaimVerdict[];
  metrics: () => ReturnType<typeof lockMetrics>;
}

function checkClaim(
  file: string,
  text: string,
  scenario: Scenario,
  { events, verdicts, metrics }: RunFacts,
  claim: Claim,
): Diagnostic[] {
  const atClaim = { file, line: claim.line, col: claim.col };
  if (claim.measure.kind === 'reply') return checkReply(file, text, scenario, events, claim, claim.measure);
  const stated = readStated(claim.says);
  if (!stated)
    return [
      {
        ...atClaim,
        message: `'${claim.says}' states no number`,
        hint: 'quote the words of the prose that carry the number, e.g. says: "at 11.6 s"',
      },
    ];
  const unitProblem = unitMismatch(claim.measure, stated);
  if (unitProblem)
    return [{ ...atClaim, message: unitProblem, hint: `quote the number with its unit, as the prose writes it` }];
  const unknownActor = actorProblem(claim.measure, events);
  if (unknownActor) return [{ ...atClaim, ...unknownActor }];
  const where = findInProse(text, claim.says);
  if (!where)
    return [
      {
        ...atClaim,
        message: `"${claim.says}" is not in the lesson's prose`,
        hint: 'a claim quotes the prose word for word (spaces and line breaks may differ); change one to match the other',
      },
    ];
  const result = measure(events, claim.measure, metrics, verdicts);
  const what = describeMeasure(claim.measure);
  if ('missing' in result)
    return [
      {
        file,
        ...where,
        message: `the prose says "${claim.says}" for ${what}, but ${result.missing} (scenario '${scenario.id}')`,
        hint: `change the prose and the claim at line ${claim.line}, or the scenario`,
      },
    ];
  if (agrees(result.value, stated)) return [];
  return [
    {
      file,
      ...where,
      message: `the prose says "${claim.says}" for ${what}, but the run shows ${writeLike(result.value, stated)} (scenario '${scenario.id}', seed ${scenario.seed})`,
      hint: `change the prose and the claim at line ${claim.line}, or the scenario`,
    },
  ];
}

/** A claim that quotes Redis's reply (the last `code` in `says`: "A's `SET` gets `OK`") to a command of the run. */
function checkReply(
  file: string,
  text: string,
  scenario: Scenario,
  events: RunTrace,
  claim: Claim,
  what: ReplyMeasure,
): Diagnostic[] {
  const atClaim = { file, line: claim.line, col: claim.col };
  const quoted = [...claim.says.matchAll(/`([^`]+)`/g)].at(-1)?.[1];
  if (quoted === undefined)
    return [
      {
        ...atClaim,
        message: `'${claim.says}' quotes no reply`,
        hint: 'a reply claim quotes the reply in `code`, as the prose writes it, e.g. says: "gets `(nil)`"',
      },
    ];
  const unknownActor = actorMissing(what.query.by, events);
  if (unknownActor) return [{ ...atClaim, ...unknownActor }];
  const where = findInProse(text, claim.says);
  if (!where)
    return [
      {
        ...atClaim,
        message: `"${claim.says}" is not in the lesson's prose`,
        hint: 'a claim quotes the prose word for word (spaces and line breaks may differ); change one to match the other',
      },
    ];
  const result = replyOf(events, what.query);
  const about = `Redis's reply to ${describeCommand(what.query)}`;
  if ('missing' in result)
    return [
      {
        file,
        ...where,
        message: `the prose quotes \`${quoted}\` as ${about}, but ${result.missing} (scenario '${scenario.id}')`,
        hint: `change the prose and the claim at line ${claim.line}, or the scenario`,
      },
    ];
  if (replyAgrees(quoted, result.reply)) return [];
  return [
    {
      file,
      ...where,
      message: `the prose quotes \`${quoted}\` as ${about}, but the run shows \`${result.reply}\` (scenario '${scenario.id}', seed ${scenario.seed})`,
      hint: `change the prose and the claim at line ${claim.line}, or the scenario`,
    },
  ];
}

function unitMismatch(what: Measure, stated: StatedNumber): string | null {
  const unit = unitOf(what);
  if (unit === 'ms' && stated.unit !== 's' && stated.unit !== 'ms')
    return `"${stated.text}" has no unit, but ${describeMeasure(what)} is a time`;
  if (unit === 'percent' && stated.unit !== 'percent')
    return `"${stated.text}" is not a percentage, but ${describeMeasure(what)} is one`;
  if (unit === 'count' && stated.unit !== null)
    return `"${stated.text}" has a unit, but ${describeMeasure(what)} is a number`;
  return null;
}

function actorProblem(what: Measure, events: RunTrace): { message: string; hint: string } | null {
  const queries: EventQuery[] =
    what.kind === 'at' ||
    what.kind === 'token' ||
    what.kind === 'validity' ||
    what.kind === 'valid-until' ||
    what.kind === 'replayed'
      ? [what.query]
      : what.kind === 'between'
        ? [what.from, what.to]
        : what.kind === 'count'
          ? [{ event: what.event, by: what.by, nth: 1 }]
          : [];
  for (const q of queries) {
    const problem = actorMissing(q.by, events);
    if (problem) return problem;
  }
  return null;
}

/** What is wrong with naming `by` as an actor of this run, or null when it is one (or nobody is named). */
function actorMissing(by: string | null, events: RunTrace): { message: string; hint: string } | null {
  const start = events.find((e) => e.kind === 'run.start');
  const actors = start?.kind === 'run.start' ? start.data.actors.map((a) => a.id) : [];
  if (by === null || actors.includes(by)) return null;
  const guess = didYouMean(by, actors);
  return {
    message: `no actor '${by}' in this run`,
    hint: guess ? `did you mean '${guess}'?` : `actors: ${actors.join(', ')}`,
  };
}

function describeMeasure(what: Measure): string {
  switch (what.kind) {
    case 'at':
      return `the time of ${describeQuery(what.query)}`;
    case 'between':
      return `the time from ${describeQuery(what.from)} to ${describeQuery(what.to)}`;
    case 'count':
      return `the number of ${describeQuery({ event: what.event, by: what.by, nth: 1 })}`;
    case 'token':
      return `the token of ${describeQuery(what.query)}`;
    case 'metric':
      return `the dashboard's ${what.name}`;
    case 'validity':
      return `the validity of ${describeQuery(what.query)}`;
    case 'valid-until':
      return `the end of the validity of ${describeQuery(what.query)}`;
    case 'replayed':
      return `the commands replayed at ${describeQuery(what.query)}`;
    case 'verdict':
      return `the time ${what.invariant} broke`;
  }
}

/**
 * Where `says` stands in what the learner reads of the lesson (its prose, and the text of a quiz,
 * a model answer and the like, but not a scenario or a claims block), as a 1-based line and
 * column; white space in it matches any white space, so a quote may cross a line break.
 */
export function findInProse(text: string, says: string): { line: number; col: number } | null {
  const pattern = new RegExp(
    says
      .trim()
      .split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+'),
    'g',
  );
  const fenced = fencedLines(text, READ_BLOCKS);
  for (const match of text.matchAll(pattern)) {
    const before = text.slice(0, match.index);
    const line = before.split('\n').length;
    if (fenced.has(line)) continue;
    return { line, col: match.index - before.lastIndexOf('\n') };
  }
  return null;
}

/**
 * The 1-based lines inside fenced blocks (and the frontmatter), where prose is not; the body of
 * a block whose language is in `read` is left out (its fences are in).
 */
export function fencedLines(text: string, read: readonly string[] = []): Set<number> {
  const inside = new Set<number>();
  let fence: string | null = null;
  let readBody = false;
  let frontmatter = text.startsWith('---');
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (frontmatter) {
      inside.add(line);
      if (i > 0 && raw.trim() === '---') frontmatter = false;
      return;
    }
    const marker = /^(`{3,}|~{3,})/.exec(raw.trimStart())?.[1];
    if (fence !== null) {
      const closing =
        marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && raw.trim() === marker;
      if (closing || !readBody) inside.add(line);
      if (closing) fence = null;
    } else if (marker !== undefined) {
      inside.add(line);
      fence = marker;
      readBody = read.includes(raw.trimStart().slice(marker.length).trim().split(/\s/)[0] ?? '');
    }
  });
  return inside;
}
