import type { Fault } from '../../check/faults';
import { describeAction } from './describeAction';
import { formatMs } from '../../sim/time';

/**
 * One sentence for a fault the explorer found, as the Break it panel lists them: when it
 * strikes, what it does (the same phrase the event list uses), and when it is undone.
 *
 * @example describeFault({ kind: 'crash', actions: [crash A at 2 s, restart A at 5 s] })
 *   // → 'At 2 s, crash A; at 5 s, restart A.'
 */
export function describeFault(fault: Fault): string {
  const [first, undo] = fault.actions;
  if (!first) return '';
  const at = `At ${formatMs(first.at)}`;
  if (fault.kind === 'restart' && first.do === 'crash')
    return `${at}, restart ${first.target}: it loses everything it held in memory.`;
  if (fault.kind === 'message-loss' && first.do === 'network') {
    return `From ${formatMs(first.at)} to ${undo ? formatMs(undo.at) : 'the end'}, every message from ${first.from} to ${first.to} is lost.`;
  }
  const then = undo ? `; at ${formatMs(undo.at)}, ${describeAction(undo)}` : '';
  return `${at}, ${describeAction(first)}${then}.`;
}
