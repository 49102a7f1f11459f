import type { Lesson } from '../../lessons/types';
import type { Verdict } from '../../check/verdict';
import { INVARIANTS, type InvariantName, type Scenario } from '../../scenario/schema/schema';
import { exportScenarioYaml } from '../../scenario/text/toYaml';
import { editScenario } from '../../scenario/running/storyEdits';
import type { RunConfig } from '../player/runModel';
import { isQuotaError } from '../progress/safeStorage';

/**
 * Where the workbench starts: two baristas, each lock written out as Redis commands, and the
 * release a plain `DEL` that checks nothing. A's lease runs out during its job; its late `DEL`
 * then removes the lease B holds. The comments say what to try, which is most of a first lesson.
 */
export const TEMPLATE = `# Two baristas share one espresso machine. Each takes the lock with SET NX PX,
# works, writes, and releases with a plain DEL, which checks nothing.
# Run it (Ctrl+Enter), then try: give A a longer TTL, or release only your own lock.
id: my-lock
title: My lock
seed: 1
clients:
  - id: A
    label: Barista A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 3000] }
      - { wait: 5s }
      - { write: espresso }
      - { redis: [DEL, lock] }
  - id: B
    label: Barista B
    startAt: 4s
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 10000] }
      - { wait: 3s }
      - { write: espresso }
      - { redis: [DEL, lock] }
resource: { id: espresso, label: Espresso machine }
controls: [pause, resume, crash, restart, clock-jump, partition, heal]
expect:
  - { invariant: single-writer, outcome: violated }
`;

/** A scenario a lesson runs, offered as a starting point. */
export interface LessonScenario {
  /** Unique in the list: the scenario's id, suffixed where two lessons use the same id differently. */
  key: string;
  label: string;
  scenario: Scenario;
}

/** Every distinct scenario the catalog's lessons run (compare sides aside), in course order. */
export function lessonScenarios(lessons: readonly Lesson[]): LessonScenario[] {
  const out: LessonScenario[] = [];
  const seen = new Map<string, string>();
  for (const lesson of lessons) {
    for (const block of lesson.blocks) {
      if (block.kind !== 'scenario') continue;
      const json = JSON.stringify(block.scenario);
      const id = block.scenario.id;
      if (seen.get(id) === json) continue;
      const key = seen.has(id) ? `${id}@${lesson.frontmatter.slug}` : id;
      seen.set(id, json);
      out.push({ key, label: `${block.scenario.title} (${lesson.frontmatter.title})`, scenario: block.scenario });
    }
  }
  return out;
}

/**
 * A validated scenario as the YAML a person would write for it (from a lesson or a share link).
 * A run's learner actions (a link made with the player's "Share this run") become script steps,
 * so the editor holds the run that was shared, not only its starting point.
 */
export function scenarioYaml(scenario: Scenario, origin: string, run?: RunConfig): string {
  // The learner's changes to the script (a fault moved, stretched, removed) are the script now.
  const yaml = exportScenarioYaml(
    editScenario(scenario, run?.edits ?? []),
    run?.actions ?? [],
    run?.fencing ?? scenario.resource.fencing,
    run?.seed ?? scenario.seed,
  );
  return yaml.replace(/^# Exported from the Lockstep sandbox\.\n/, `# ${origin}\n`);
}

/**
 * The scenario with a run loaded in the player (a counterexample Break it found, or the
 * learner's own actions) written into it: the run's faults as script steps, its seed, and an
 * `expect` that says what the run breaks, so `lessons:check` reproduces the break. Invariants
 * the run keeps are left as the scenario said them.
 */
export function runAsScenarioYaml(
  scenario: Scenario,
  run: RunConfig,
  verdicts: readonly Pick<Verdict, 'invariant' | 'holds'>[],
): string {
  const broken = [...new Set(verdicts.filter((v) => !v.holds).map((v) => v.invariant))].filter(isInvariant);
  const kept = scenario.expect.filter(
    (e) => e.invariant !== 'all' && !broken.includes(e.invariant) && e.outcome === 'holds',
  );
  const expect = [...broken.map((invariant) => ({ invariant, outcome: 'violated' as const })), ...kept];
  const origin = `A run of '${scenario.id}' that breaks ${broken.join(', ') || 'nothing'}: its faults are the script steps marked as learner actions.`;
  return scenarioYaml({ ...scenario, expect }, origin, run);
}

function isInvariant(name: string): name is InvariantName {
  return (INVARIANTS as readonly string[]).includes(name);
}

/** A lesson slug from a scenario id: lowercase, digits and dashes. */
function slugOf(id: string): string {
  return (
    id
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'my-lesson'
  );
}

/**
 * A lesson file around the scenario, ready for lessons/ and accepted by `lessons:check`: the
 * frontmatter names `course` (an id from courses.yaml) and an `order` the author will change,
 * the scenario sits in its fenced block as written, and a reflect block asks the learner why.
 * `lessons:check` requires sources, so it starts with the Redis docs page on distributed locks,
 * for the author to replace or add to.
 */
export function lessonSkeleton(scenarioText: string, scenario: Scenario, course: string): string {
  const slug = slugOf(scenario.id);
  const title = scenario.title.replace(/"/g, '\\"');
  return `---
slug: ${slug}
title: "${title}"
course: ${course}
order: 99
readTime: 5
summary: "One or two sentences for the course map: what the learner breaks, and what fixes it."
sources:
  - title: "Distributed Locks with Redis"
    url: https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/
    by: "Redis"
    note: "Replace or add to this: the docs page, library or article this lesson's facts come from."
---

Say what the learner is about to see, and what to watch for on the timeline.

\`\`\`scenario
${scenarioText.trimEnd()}
\`\`\`

## What happened

Explain the run: which invariant broke, when, and why.

\`\`\`reflect
id: ${slug}-why
question: In your own words, why did this run break?
\`\`\`
`;
}

/** The file name a download of the scenario gets. */
export function fileNameFor(scenarioId: string, extension: 'yaml' | 'md'): string {
  const slug = slugOf(scenarioId);
  return extension === 'md' ? `99-${slug}.md` : `${slug}.yaml`;
}

const STORAGE_KEY = 'lockstep.workbench.v1';
/** The format saveWork writes; a larger one was saved by a newer Lockstep. */
const WORK_VERSION = 1;

/** What was saved on this device: the text, or why it could not be used and where a copy was kept. */
export type LoadedWork =
  { text: string | null } | { text: null; problem: 'unreadable' | 'newer'; backupKey: string | null };

/**
 * The learner's work in progress, saved on this device. Storage may be off or full: then it is
 * memory only. Saved work this version cannot use (unreadable, or written by a newer Lockstep)
 * is never lost: it is copied to a backup key before the editor starts from the template, and
 * the caller says so.
 */
export function loadWork(
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
  now: () => number = Date.now,
): LoadedWork {
  let raw: string | null | undefined;
  try {
    raw = storage?.getItem(STORAGE_KEY);
  } catch {
    return { text: null };
  }
  if (!raw) return { text: null };
  const problem = workProblem(raw);
  if (problem === null) return { text: (JSON.parse(raw) as { text: string }).text };
  const backupKey = `${STORAGE_KEY}.backup.${now()}`;
  try {
    storage!.setItem(backupKey, raw);
    return { text: null, problem, backupKey };
  } catch {
    return { text: null, problem, backupKey: null };
  }
}

function workProblem(raw: string): 'unreadable' | 'newer' | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return 'unreadable';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'unreadable';
  const { text, version } = parsed as { text?: unknown; version?: unknown };
  if (typeof version === 'number' && version > WORK_VERSION) return 'newer';
  return typeof text === 'string' ? null : 'unreadable';
}

/** What to tell the learner about saved work loadWork could not use; null when there is none. */
export function loadedWorkNotice(loaded: LoadedWork): string | null {
  if (!('problem' in loaded)) return null;
  const why = loaded.problem === 'newer' ? 'was saved by a newer version of Lockstep' : 'could not be read';
  const kept = loaded.backupKey
    ? ` A copy was kept in this browser under "${loaded.backupKey}".`
    : ' This browser would not keep a copy of it.';
  return `Your saved workbench text ${why}, so the editor starts from the template.${kept}`;
}

/** Saves the work in progress: 'saved', or why not ('full' storage, or storage the browser keeps 'off'). */
export function saveWork(storage: Pick<Storage, 'setItem'> | null, text: string): 'saved' | 'full' | 'off' {
  if (storage === null) return 'off';
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify({ version: WORK_VERSION, text }));
    return 'saved';
  } catch (error) {
    return isQuotaError(error) ? 'full' : 'off';
  }
}
