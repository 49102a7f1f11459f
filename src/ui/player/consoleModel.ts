import type { TraceEvent } from '../../sim/traceEvents';
import type { ConsoleRead } from './consoleRead';
import { consoleWarning, type LiveLease } from './consoleWarnings';

/** One console exchange as the transcript shows it. */
export interface ConsoleEntry {
  /** The action.apply event that ran it. */
  id: number;
  at: number;
  node: string;
  command: string;
  /** redis-cli's output lines, or null when the node did not answer (down or paused). */
  reply: string[] | null;
  /** What the command risks (consoleWarnings.ts), or null for a harmless one. */
  warning: string | null;
}

/**
 * The console's transcript, read from the trace: each learner command (an `action.apply` of
 * a `command`) and the `redis.command` the node recorded for it at the same moment. Because it
 * comes from the trace, a share link or a step back shows exactly the same transcript, warnings
 * included: each is judged on the leases the node held when the command ran.
 */
export function consoleTranscript(events: readonly TraceEvent[], cursor: number): ConsoleEntry[] {
  const out: ConsoleEntry[] = [];
  const labels = new Map<string, string>();
  const lockKeys = new Set<string>();
  for (const e of events) if (e.kind === 'lease.granted') lockKeys.add(e.data.key);
  // node → key → the lease on it, as the trace has told it so far.
  const leases = new Map<string, Map<string, { owner: string; value: string }>>();
  // key → values the console itself wrote to it: a lease holding one of them is the console's own.
  const consoleValues = new Map<string, Set<string>>();
  for (let i = 0; i <= cursor && i < events.length; i++) {
    const e = events[i]!;
    if (e.kind === 'run.start') for (const a of e.data.actors) labels.set(a.id, a.label);
    else if (e.kind === 'lease.granted')
      nodeLeases(leases, e.actor).set(e.data.key, { owner: e.data.owner, value: e.data.value });
    else if (e.kind === 'lease.ended') nodeLeases(leases, e.actor).delete(e.data.key);
    else if (e.kind === 'redis.command' && e.data.from === 'console') rememberWrite(consoleValues, e.data.argv);
    if (e.kind !== 'action.apply' || e.data.action !== 'command' || e.data.source !== 'learner') continue;
    const next = events[i + 1];
    const answered =
      next?.kind === 'redis.command' && next.data.from === 'console' && next.actor === e.actor && next.at === e.at;
    const command = answered
      ? next.data.argv.join(' ')
      : e.data.detail.replace(/^run /, '').replace(new RegExp(` on ${e.actor}$`), '');
    const live = new Map<string, LiveLease>();
    for (const [key, lease] of nodeLeases(leases, e.actor)) {
      live.set(key, {
        holder: consoleValues.get(key)?.has(lease.value) ? null : (labels.get(lease.owner) ?? lease.owner),
      });
    }
    out.push({
      id: e.id,
      at: e.at,
      node: e.actor,
      command,
      reply: answered ? next.data.reply.split('\n') : null,
      warning: consoleWarning(answered ? next.data.argv : command.split(' '), {
        node: labels.get(e.actor) ?? e.actor,
        lockKeys,
        leases: live,
      }),
    });
  }
  return out;
}

function nodeLeases(
  leases: Map<string, Map<string, { owner: string; value: string }>>,
  node: string,
): Map<string, { owner: string; value: string }> {
  let map = leases.get(node);
  if (!map) leases.set(node, (map = new Map()));
  return map;
}

/** Notes the value a console SET/SETNX wrote, so the console's own lock is not taken for a client's. */
function rememberWrite(consoleValues: Map<string, Set<string>>, argv: readonly string[]): void {
  const name = argv[0]?.toUpperCase();
  const [key, value] = [argv[1], argv[2]];
  if ((name === 'SET' || name === 'SETNX') && key !== undefined && value !== undefined) {
    let values = consoleValues.get(key);
    if (!values) consoleValues.set(key, (values = new Set()));
    values.add(value);
  }
}

/** A line of the console as shown: a written command from the trace, or a read. */
export interface TranscriptLine extends Omit<ConsoleEntry, 'id' | 'reply'> {
  key: string;
  /** As ConsoleEntry's, or undefined while a read's answer is being computed. */
  reply: string[] | null | undefined;
}

/**
 * The written commands and the reads in the order of their moments (a read after a written
 * command at the same moment: it was answered after it ran). `replies` are the reads' answers
 * in this run, or null while they are computed; `shown` picks the reads the playhead has reached.
 */
export function withReads(
  written: readonly ConsoleEntry[],
  reads: readonly ConsoleRead[],
  replies: readonly (string[] | null)[] | null,
  shown: (read: ConsoleRead, index: number) => boolean,
): TranscriptLine[] {
  const lines: TranscriptLine[] = written.map((w) => ({ ...w, key: `w${w.id}` }));
  reads.forEach((read, i) => {
    if (!shown(read, i)) return;
    lines.push({
      key: `r${i}`,
      at: read.atMs,
      node: read.node,
      command: read.argv.join(' '),
      reply: replies ? replies[i] : undefined,
      warning: null,
    });
  });
  // Array.prototype.sort is stable: equal moments keep written commands first, reads in asking order.
  return lines.sort((a, b) => a.at - b.at);
}
