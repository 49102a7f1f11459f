import type { Action } from '../../actors/action';
import type { Scenario } from '../../scenario/schema/schema';
import {
  lengthOf,
  markName,
  resizable,
  SNAP_MS,
  storyMarks,
  wholeMs,
  type StoryEdit,
} from '../../scenario/running/storyEdits';
import { toScriptEntry } from '../../scenario/schema/scriptActions';
import { formatMs, simTime } from '../../sim/time';
import type { RunConfig } from './runModel';

/**
 * The marks a learner can grab on the player's lanes: every scripted fault of the scenario (as
 * the learner's edits left it) and every action the learner took. A change to a scripted mark
 * becomes a story edit (`src/scenario/running/storyEdits.ts`); a change to the learner's own action
 * changes that action.
 */
export interface PlayerMark {
  /** Stable across runs: `script:3` (the script's mark 3) or `learner:0` (the learner's first action). */
  key: string;
  source: 'script' | 'learner';
  /** The script mark, or the index in the learner's actions. */
  index: number;
  /** "pause A", "heal". */
  name: string;
  atMs: number;
  /** How long it lasts, when it has a length (a pause, a partition up to its heal). */
  lengthMs: number | null;
  /** Whether `[`/`]` can change its length. */
  resizable: boolean;
  /** The lane it sits on: its target, or for a network-wide fault the first actor it names. */
  laneId: string | null;
}

export type MarkChange =
  | { mark: string; change: 'move'; toMs: number }
  | { mark: string; change: 'resize'; lengthMs: number }
  | { mark: string; change: 'remove' };

/** The actor whose lane shows an entry: its target, a partition's first side, a network change's sender. */
function laneOf(entry: { do: string; target?: string; groups?: string[][]; from?: string }): string | null {
  return entry.target ?? entry.groups?.[0]?.[0] ?? entry.from ?? null;
}

/** Every mark of a run, in time order within each source. A heal with no lane of its own sits on the lane of the partition it ends. */
export function playerMarks(scenario: Scenario, config: RunConfig): PlayerMark[] {
  const script = storyMarks(scenario, config.edits ?? []);
  let lastSplit: string | null = null;
  const scripted = script.map((m): PlayerMark => {
    const lane = laneOf(m.entry as never) ?? (m.entry.do === 'heal' ? lastSplit : null);
    if (m.entry.do === 'partition') lastSplit = lane;
    return {
      key: `script:${m.mark}`,
      source: 'script',
      index: m.mark,
      name: markName(m.entry),
      atMs: m.entry.at,
      lengthMs: lengthOf(script, m),
      resizable: resizable(m),
      laneId: lane,
    };
  });
  const own = config.actions.map((a, index) => ({ mark: index, entry: toScriptEntry(a) }));
  const learner = own.map((m): PlayerMark => ({
    key: `learner:${m.mark}`,
    source: 'learner',
    index: m.mark,
    name: markName(m.entry),
    atMs: m.entry.at,
    lengthMs: m.entry.do === 'pause' ? (m.entry.for ?? null) : null,
    resizable: m.entry.do === 'pause',
    laneId: laneOf(m.entry as never),
  }));
  return [...scripted, ...learner];
}

/** The run config with one mark changed, or null when the change changes nothing (a move to where it is). */
export function applyMarkChange(scenario: Scenario, config: RunConfig, change: MarkChange): RunConfig | null {
  const mark = playerMarks(scenario, config).find((m) => m.key === change.mark);
  if (!mark) return null;
  if (change.change === 'move' && wholeMs(change.toMs) === mark.atMs) return null;
  if (change.change === 'resize' && (!mark.resizable || wholeMs(change.lengthMs) === mark.lengthMs)) return null;
  if (mark.source === 'script') {
    const edit: StoryEdit =
      change.change === 'move'
        ? { edit: 'move', mark: mark.index, toMs: wholeMs(change.toMs) }
        : change.change === 'resize'
          ? { edit: 'resize', mark: mark.index, lengthMs: wholeMs(change.lengthMs) }
          : { edit: 'remove', mark: mark.index };
    return { ...config, edits: [...(config.edits ?? []), edit] };
  }
  const actions = config.actions.flatMap((a, i): Action[] => {
    if (i !== mark.index) return [a];
    if (change.change === 'remove') return [];
    if (change.change === 'move') return [{ ...a, at: simTime(Math.min(scenario.horizon, wholeMs(change.toMs))) }];
    return a.do === 'pause' ? [{ ...a, forMs: Math.max(SNAP_MS, wholeMs(change.lengthMs)) }] : [a];
  });
  return { ...config, actions };
}

/** What a change did, for the live region: "pause A moved to 2.1 s", "pause A shortened to 5 s", "crash A removed". */
export function describeMarkChange(
  scenario: Scenario,
  before: RunConfig,
  after: RunConfig,
  change: MarkChange,
): string {
  const was = playerMarks(scenario, before).find((m) => m.key === change.mark);
  const now = playerMarks(scenario, after).find((m) => m.key === change.mark);
  if (!was) return '';
  if (!now) return `${was.name} removed`;
  if (change.change === 'move') return `${was.name} moved to ${formatMs(now.atMs)}`;
  const longer = (now.lengthMs ?? 0) > (was.lengthMs ?? 0);
  return `${was.name} ${longer ? 'lengthened' : 'shortened'} to ${formatMs(now.lengthMs ?? 0)}`;
}

/** Whether a run differs from the lesson's own: the learner moved, stretched, removed or added something. */
export function isChanged(config: RunConfig): boolean {
  return config.actions.length > 0 || (config.edits?.length ?? 0) > 0;
}
