import type { Verdict } from '../../check/verdict';
import { formatMs } from '../../sim/time';
import type { TraceEvent, TraceKind } from '../../sim/traceEvents';

/** Plumbing left out of a summary: every message's send and delivery, shown by what they cause. */
const QUIET = new Set<TraceKind>(['net.send', 'net.deliver', 'run.start']);

/**
 * A run as a short, readable text: one line per meaningful event, then each verdict and the
 * trace hash. Golden files in lessons/scenarios/golden/ hold these, so a change in behaviour
 * shows up as a diff a person can read ("B now acquires at 11.004 s instead of 11.002 s").
 */
export function summarizeTrace(events: readonly TraceEvent[], verdicts: readonly Verdict[], hash: string): string {
  const lines: string[] = [];
  for (const e of events) {
    if (QUIET.has(e.kind)) continue;
    lines.push(`${formatMs(e.at).padStart(10)}  ${e.actor.padEnd(8)} ${e.kind.padEnd(16)} ${details(e)}`.trimEnd());
  }
  lines.push('');
  for (const v of verdicts)
    lines.push(
      `${v.holds ? 'holds   ' : 'VIOLATED'} ${v.invariant}${v.holds ? '' : ` at ${formatMs(v.atMs ?? 0)} (events ${v.eventIds.join(', ')}): ${v.explanation}`}`,
    );
  lines.push(`trace ${hash}, ${events.length} events`);
  return `${lines.join('\n')}\n`;
}

function details(e: TraceEvent): string {
  switch (e.kind) {
    case 'redis.command':
      return `${e.data.from}: ${e.data.argv[0] === 'EVAL' ? `EVAL <script> ${e.data.argv.slice(2).join(' ')}` : e.data.argv.join(' ')} -> ${e.data.reply}`;
    case 'actor.state':
      return e.data.state;
    case 'action.apply':
      return `${e.data.source}: ${e.data.detail}`;
    default: {
      const data = e.data as Record<string, unknown>;
      return Object.entries(data)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(' ');
    }
  }
}
