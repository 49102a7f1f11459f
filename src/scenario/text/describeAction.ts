import type { UntimedAction } from '../../actors/action';
import { describeLatency } from '../../net/faults';
import { formatMs } from '../../sim/time';

/** One phrase for an action, as the trace's `action.apply` and the event list show it. */
export function describeAction(action: UntimedAction): string {
  switch (action.do) {
    case 'pause':
      return action.forMs === undefined
        ? `pause ${action.target}`
        : `pause ${action.target} for ${formatMs(action.forMs)}`;
    case 'clock-jump':
      return `jump ${action.target}'s clock by ${formatMs(action.byMs)}`;
    case 'partition':
      return action.oneWay
        ? `cut messages from ${action.groups[0]!.join(', ')} to ${action.groups.slice(1).flat().join(', ')}`
        : `partition the network: ${action.groups.map((g) => `{${g.join(', ')}}`).join(' | ')}`;
    case 'heal':
      return 'heal the network';
    case 'command':
      return `run ${action.argv.join(' ')} on ${action.target}`;
    case 'network': {
      const parts = [
        action.latency && `latency ${describeLatency(action.latency)}`,
        action.loss !== undefined && `loss ${Math.round(action.loss * 100)}%`,
        action.duplicate !== undefined && `duplication ${Math.round(action.duplicate * 100)}%`,
        action.reorder !== undefined && `reordering ${Math.round(action.reorder * 100)}%`,
      ].filter(Boolean);
      const where = action.from !== undefined && action.to !== undefined ? ` on ${action.from} → ${action.to}` : '';
      return `set network weather${where}: ${parts.join(', ') || 'no change'}`;
    }
    default:
      return `${action.do} ${action.target}`;
  }
}
