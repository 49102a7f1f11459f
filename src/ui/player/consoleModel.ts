import type { TraceEvent } from '../../sim/traceEvents';

/** One console exchange as the transcript shows it. */
export interface ConsoleEntry {
  /** The action.apply event that ran it. */
  id: number;
  at: number;
  node: string;
  command: string;
  /** redis-cli's output lines, or null when the node did not answer (down or paused). */
  reply: string[] | null;
}

/**
 * The console's transcript, read from the trace: each learner command (an `action.apply` of
 * a `command`) and the `redis.command` the node recorded for it at the same moment. Because it
 * comes from the trace, a share link or a step back shows exactly the same transcript.
 */
export function consoleTranscript(events: readonly TraceEvent[], cursor: number): ConsoleEntry[] {
  const out: ConsoleEntry[] = [];
  for (let i = 0; i <= cursor && i < events.length; i++) {
    const e = events[i]!;
    if (e.kind !== 'action.apply' || e.data.action !== 'command' || e.data.source !== 'learner') continue;
    const next = events[i + 1];
    const answered = next?.kind === 'redis.command' && next.data.from === 'console' && next.actor === e.actor && next.at === e.at;
    out.push({
      id: e.id,
      at: e.at,
      node: e.actor,
      command: answered ? next.data.argv.join(' ') : e.data.detail.replace(/^run /, '').replace(new RegExp(` on ${e.actor}$`), ''),
      reply: answered ? next.data.reply.split('\n') : null,
    });
  }
  return out;
}
