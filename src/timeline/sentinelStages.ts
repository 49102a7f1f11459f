import type { PointMark } from './modelTypes';

/** A trace event as the topology records it, read loosely (see topologyPoint in model.ts). */
interface StageEvent {
  id: number;
  at: number;
  kind: string;
  actor: string;
  data: Record<string, unknown>;
}

/**
 * Events of one sentinel closer together than this are one burst, drawn as one mark. A whole
 * failover (SDOWN, ODOWN, the election, the promotion) takes about a second in the simulator,
 * as in Redis: the election waits up to a second, and the leader announces the promotion at the
 * replica's next INFO, up to a second after it sent REPLICAOF NO ONE. On a phone a 60 s run
 * gives that second 3 px, so one mark per step would pile five squares on each other with no
 * room for a word.
 */
const BURST_GAP_MS = 1500;

/** At most this many stage words under one mark; a longer burst says how many more. */
const MAX_LINES = 4;

/**
 * Sentinel's opinions, votes and failovers as one mark per burst on each sentinel's lane,
 * labelled with the stages the lessons name (SDOWN, ODOWN, election, promotion), one short word
 * a line. Each mark keeps its events' ids, so its tooltip and accessible name tell every step.
 */
export function sentinelStageMarks(events: readonly StageEvent[]): PointMark[] {
  const open = new Map<string, { lastAt: number; events: StageEvent[] }>();
  const bursts: StageEvent[][] = [];
  for (const e of events) {
    if (!isStageEvent(e.kind)) continue;
    const burst = open.get(e.actor);
    if (burst && e.at - burst.lastAt <= BURST_GAP_MS) {
      burst.events.push(e);
      burst.lastAt = e.at;
    } else {
      const list = [e];
      bursts.push(list);
      open.set(e.actor, { lastAt: e.at, events: list });
    }
  }
  // Words are written once a burst is complete (a later "elected" makes "election" redundant).
  return bursts.map((list) => {
    const first = list[0]!;
    const lines = stageLines(list);
    return {
      id: first.id,
      kind: 'sentinel',
      lane: first.actor,
      at: first.at,
      label: lines.join(' › '),
      lines,
      eventIds: list.map((e) => e.id),
    };
  });
}

/** Whether a burst is a failover under way (the primary objectively down, or more), not a passing doubt. */
export function isFailoverBurst(p: PointMark): boolean {
  return (
    p.kind === 'sentinel' &&
    (p.lines ?? []).some(
      (w) => w === 'ODOWN' || w === 'elected' || w === 'promoted' || w === 'voted' || w === 'switched',
    )
  );
}

/** Whether a trace kind is one of Sentinel's steps. */
export function isStageEvent(kind: string): boolean {
  return kind.startsWith('sentinel.') || kind.startsWith('failover.');
}

/** The short words of one burst, in order, each said once. */
export function stageLines(list: readonly StageEvent[]): string[] {
  const words: string[] = [];
  const elected = list.some((e) => e.kind === 'sentinel.elected');
  const promoted = list.some((e) => e.kind === 'failover.promote');
  for (const e of list) {
    const word = stageWord(e, { elected, promoted });
    if (word !== null && !words.includes(word)) words.push(word);
  }
  if (words.length <= MAX_LINES) return words;
  return [...words.slice(0, MAX_LINES - 1), `+${words.length - MAX_LINES + 1} more`];
}

/**
 * One event's word, as the failover lessons name the stage, and no more: a phone's plot is
 * 165 px wide, so who was voted for and which node was promoted are left to the mark's tooltip
 * (the promoted node's own lane shows its new role). A vote for itself opens the election (said
 * only if it is not won in the same burst), the leader's failover start is its election's
 * outcome, and the switch a promotion publishes is the promotion itself.
 */
function stageWord(e: StageEvent, burst: { elected: boolean; promoted: boolean }): string | null {
  const d = e.data;
  switch (e.kind) {
    case 'sentinel.sdown':
      return d.down ? 'SDOWN' : 'up again';
    case 'sentinel.odown':
      return d.down ? 'ODOWN' : 'not ODOWN';
    case 'sentinel.vote':
      if (d.leader !== e.actor) return 'voted';
      return burst.elected ? null : 'election';
    case 'sentinel.elected':
      return 'elected';
    case 'failover.start':
      return d.manual ? 'failover (by hand)' : null;
    case 'failover.promote':
      return 'promoted';
    case 'sentinel.switch':
      return burst.promoted ? null : 'switched';
    case 'failover.abort':
      return 'failover aborted';
    default:
      return null;
  }
}
