import { z } from 'zod';
import type { Action, ActionKind } from '../../actors/action';
import { actionSchema, DAY_MS } from '../schema/actionSchema';
import { actionInput } from '../text/scenarioInput';
import { scriptAction, type Scenario, type ScriptAction } from '../schema/schema';
import { formatMs } from '../../sim/time';

/**
 * A learner's changes to a scenario's own script: the scripted faults moved, stretched, removed,
 * or new ones added, as a list of edits applied in order to the scenario before it runs. The
 * list (not just its result) is what a run carries, so a share link says what changed and an
 * undo drops the last edit.
 *
 * A mark is a script entry by its index in the scenario as written; an added entry is numbered
 * after them, in the order added (`script.length`, `script.length + 1`, ...), so a later edit can
 * move what an earlier one added. Times and lengths are kept to the millisecond: a drag snaps to
 * the timeline's SNAP_MS grid or to an event's own time (src/ui/player/dragSnap.ts), and an
 * event's time is rarely on the grid.
 */
export type StoryEdit =
  | { edit: 'move'; mark: number; toMs: number }
  | { edit: 'resize'; mark: number; lengthMs: number }
  | { edit: 'remove'; mark: number }
  | { edit: 'add'; action: Action }
  | ClientEdit;

/**
 * A client's own timing changed (from its lane's menu): when it starts, the TTL it asks for, how
 * long its work takes. Only the fields given change; a client that is not there is left alone.
 */
export interface ClientEdit {
  edit: 'client';
  client: string;
  startAtMs?: number;
  ttlMs?: number;
  workMs?: number;
}

/** The client timings a lane menu changes, with the words the banner and the live region use for each. */
export const CLIENT_TIMINGS = [
  { field: 'startAtMs', key: 'startAt', says: 'start' },
  { field: 'ttlMs', key: 'ttl', says: 'TTL' },
  { field: 'workMs', key: 'work', says: 'work' },
] as const;

/** The timeline's grid: a step of the keyboard and of a phone's stepper, and where a drag lands between events. */
export const SNAP_MS = 100;

/** At most this many edits in a run: more than a learner makes, few enough for a share link. */
export const MAX_EDITS = 200;

/** The nearest point of the grid, never negative. */
export function snapMs(ms: number): number {
  return Math.max(0, Math.round(ms / SNAP_MS) * SNAP_MS);
}

/** The nearest whole millisecond, never negative: what an edit's time or length is kept to. */
export function wholeMs(ms: number): number {
  return Math.max(0, Math.round(ms));
}

/** One entry of the edited script, under the mark that names it. */
export interface StoryMark {
  mark: number;
  entry: ScriptAction;
}

/** A span's end that is a script entry of its own: a partition's heal, a crash's restart, an open pause's resume. */
const ENDED_BY: Partial<Record<ActionKind, ActionKind>> = {
  partition: 'heal',
  crash: 'restart',
  'power-loss': 'restart',
  pause: 'resume',
};

/** The entry that ends the span `start` begins (the first of its kind at or after it, for the same target), if any. */
export function endOf(marks: readonly StoryMark[], start: StoryMark): StoryMark | undefined {
  const ender = ENDED_BY[start.entry.do];
  if (!ender || (start.entry.do === 'pause' && start.entry.for !== undefined)) return undefined;
  const target = 'target' in start.entry ? start.entry.target : undefined;
  return marks
    .filter(
      (m) =>
        m.entry.do === ender &&
        m.entry.at >= start.entry.at &&
        (target === undefined || ('target' in m.entry && m.entry.target === target)),
    )
    .sort((a, b) => a.entry.at - b.entry.at)[0];
}

/** How long a mark's fault lasts: a pause's `for`, or up to the entry that ends it; null when it has no length. */
export function lengthOf(marks: readonly StoryMark[], mark: StoryMark): number | null {
  if (mark.entry.do === 'pause' && mark.entry.for !== undefined) return mark.entry.for;
  const end = endOf(marks, mark);
  return end ? end.entry.at - mark.entry.at : null;
}

/** Whether a mark's fault can be given a length (`[`/`]` on the timeline). */
export function resizable(mark: StoryMark): boolean {
  return ENDED_BY[mark.entry.do] !== undefined;
}

/** The entry that ends a span when a length is first given to one that had none. */
function ending(start: ScriptAction, atMs: number): ScriptAction {
  return start.do === 'partition'
    ? { at: atMs, do: 'heal' }
    : { at: atMs, do: 'restart', target: (start as { target: string }).target };
}

function applyOne(marks: StoryMark[], edit: StoryEdit, horizonMs: number, nextMark: number): StoryMark[] {
  if (edit.edit === 'client') return marks;
  if (edit.edit === 'add') return [...marks, { mark: nextMark, entry: scriptAction.parse(actionInput(edit.action)) }];
  const target = marks.find((m) => m.mark === edit.mark);
  if (!target) return marks;
  const replace = (changes: Map<number, ScriptAction>) =>
    marks.map((m) => (changes.has(m.mark) ? { mark: m.mark, entry: changes.get(m.mark)! } : m));
  const end = endOf(marks, target);
  switch (edit.edit) {
    case 'remove':
      // A span goes whole: a partition removed takes its heal with it, a crash its restart.
      return marks.filter((m) => m !== target && m !== end);
    case 'move': {
      const toMs = Math.min(horizonMs, wholeMs(edit.toMs));
      const changes = new Map([[target.mark, { ...target.entry, at: toMs }]]);
      // A span moves whole, as a clip does on a video editor's timeline: its end keeps its distance.
      if (end) changes.set(end.mark, { ...end.entry, at: Math.min(horizonMs, end.entry.at + toMs - target.entry.at) });
      return replace(changes);
    }
    case 'resize': {
      if (!resizable(target)) return marks;
      const lengthMs = Math.max(SNAP_MS, wholeMs(edit.lengthMs));
      if (target.entry.do === 'pause' && !end)
        return replace(new Map([[target.mark, { ...target.entry, for: lengthMs }]]));
      const endMs = Math.min(horizonMs, target.entry.at + lengthMs);
      if (end) return replace(new Map([[end.mark, { ...end.entry, at: endMs }]]));
      return [...marks, { mark: nextMark, entry: ending(target.entry, endMs) }];
    }
  }
}

/**
 * The scenario's script with `edits` applied, each entry under its mark, in time order (the
 * order the simulation schedules them in, ties kept as written). An edit naming a mark that
 * is not there (removed earlier) changes nothing.
 */
export function storyMarks(scenario: Scenario, edits: readonly StoryEdit[]): StoryMark[] {
  let marks: StoryMark[] = scenario.script.map((entry, mark) => ({ mark, entry }));
  let next = scenario.script.length;
  for (const edit of edits) {
    const before = marks.length;
    marks = applyOne(marks, edit, scenario.horizon, next);
    // An add, or a resize that had to add the span's end, took the next number.
    if (edit.edit === 'add' || (edit.edit === 'resize' && marks.length > before)) next++;
  }
  return marks
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.entry.at - b.m.entry.at || a.i - b.i)
    .map(({ m }) => m);
}

/** The scenario as the learner changed it: the same scenario with its script and its clients' timings edited. */
export function editScenario(scenario: Scenario, edits: readonly StoryEdit[]): Scenario {
  if (edits.length === 0) return scenario;
  return {
    ...scenario,
    clients: scenario.clients.map((c) => editClient(c, edits)),
    script: storyMarks(scenario, edits).map((m) => m.entry),
  };
}

/** One client with every timing edit for it applied, later edits winning. */
function editClient(client: Scenario['clients'][number], edits: readonly StoryEdit[]): Scenario['clients'][number] {
  let edited = client;
  for (const e of edits) {
    if (e.edit !== 'client' || e.client !== client.id) continue;
    edited = {
      ...edited,
      ...(e.startAtMs === undefined ? {} : { startAt: e.startAtMs }),
      ...(e.ttlMs === undefined ? {} : { ttl: e.ttlMs }),
      ...(e.workMs === undefined ? {} : { work: e.workMs }),
    };
  }
  return edited;
}

/** Edits as data from outside (a share link's `e` list). */
export const storyEditsSchema = z
  .array(
    z.discriminatedUnion('edit', [
      z.strictObject({
        edit: z.literal('move'),
        mark: z.number().int().nonnegative(),
        toMs: z.number().int().nonnegative().max(DAY_MS),
      }),
      z.strictObject({
        edit: z.literal('resize'),
        mark: z.number().int().nonnegative(),
        lengthMs: z.number().int().positive().max(DAY_MS),
      }),
      z.strictObject({ edit: z.literal('remove'), mark: z.number().int().nonnegative() }),
      z.strictObject({ edit: z.literal('add'), action: actionSchema }),
      z.strictObject({
        edit: z.literal('client'),
        client: z.string().min(1).max(64),
        startAtMs: z.number().int().nonnegative().max(DAY_MS).optional(),
        ttlMs: z.number().int().positive().max(DAY_MS).optional(),
        workMs: z.number().int().nonnegative().max(DAY_MS).optional(),
      }),
    ]),
  )
  .max(MAX_EDITS, `must hold at most ${MAX_EDITS} edits`);

/** A mark as a learner names it: what it does and to whom ("pause A", "heal"). */
export function markName(entry: ScriptAction): string {
  return 'target' in entry ? `${entry.do} ${entry.target}` : entry.do;
}

/**
 * What the edits changed, one phrase per scripted fault, for the banner over a shared edited run:
 * "pause A moved to 1.9 s", "pause A shortened to 5 s", "crash A removed". Compares the script
 * as written with the script as edited, so a fault moved twice is said once, where it ended up.
 */
export function describeStoryChanges(scenario: Scenario, edits: readonly StoryEdit[]): string[] {
  const edited = new Map(storyMarks(scenario, edits).map((m) => [m.mark, m.entry]));
  const said: string[] = [];
  scenario.script.forEach((before, mark) => {
    const after = edited.get(mark);
    if (!after) return said.push(`${markName(before)} removed`);
    if (after.at !== before.at) said.push(`${markName(before)} moved to ${formatMs(after.at)}`);
    if (before.do === 'pause' && after.do === 'pause' && after.for !== before.for && after.for !== undefined) {
      said.push(
        `${markName(before)} ${before.for === undefined || after.for > before.for ? 'lengthened' : 'shortened'} to ${formatMs(after.for)}`,
      );
    }
    return undefined;
  });
  for (const [mark, entry] of edited)
    if (mark >= scenario.script.length) said.push(`${markName(entry)} added at ${formatMs(entry.at)}`);
  return [...said, ...describeClientChanges(scenario, edits)];
}

/** "W's start moved to 100 ms", "A's TTL set to 5 s": each client timing the edits changed, where it ended up. */
export function describeClientChanges(scenario: Scenario, edits: readonly StoryEdit[]): string[] {
  const edited = editScenario(scenario, edits);
  return scenario.clients.flatMap((before, i) => {
    const after = edited.clients[i]!;
    return CLIENT_TIMINGS.flatMap(({ key, says }) => {
      const was = before[key];
      const now = after[key];
      if (now === was || typeof now !== 'number') return [];
      return [`${before.id}'s ${says} ${key === 'startAt' ? 'moved' : 'set'} to ${formatMs(now)}`];
    });
  });
}
