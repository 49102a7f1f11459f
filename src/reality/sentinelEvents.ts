import type { Report } from './protocol';

/** What a real sentinel's announcements are read against: who is who in the scenario. */
export interface SentinelContext {
  /** The group's name (`mymaster`). */
  group: string;
  /** The scenario's Redis node listening on a loopback port, if any. */
  nodeAt(port: number): string | undefined;
  /** The scenario's sentinel with this run id (Sentinel names a leader by its run id). */
  sentinelWithRunId(runId: string): string | undefined;
  /** Votes a leader needs: the larger of the quorum and a majority of the sentinels. */
  needed: number;
}

/**
 * Reads one sentinel's announcements (its pub/sub channels `+sdown`, `+odown`,
 * `+switch-master`, …) as the events the simulated Sentinel records, so the failover of a real
 * run is drawn and judged in the simulator's own vocabulary. One reader per sentinel: it keeps
 * that sentinel's epoch and the replica it promoted, which later announcements do not repeat.
 */
export class SentinelReader {
  private epoch = 0;
  private promoted: string | null = null;

  constructor(
    private readonly id: string,
    private readonly context: SentinelContext,
  ) {}

  /** The trace events `message` on `channel` stands for (none for the many it does not). */
  read(channel: string, message: string): Report[] {
    const { id, context } = this;
    const words = message.split(' ');
    const state = (name: string): Report => ({ kind: 'actor.state', actor: id, data: { state: name } });
    // An instance is `master <name> <ip> <port>`, `slave <ip:port> <ip> <port> @ <name> <ip> <port>`
    // or `sentinel <runid> <ip> <port> @ …`; after `@` comes the primary it belongs to.
    const instance = words[0]!;
    const subject = instance === 'sentinel' ? context.sentinelWithRunId(words[1]!) : context.nodeAt(Number(words[3]));
    const at = words.indexOf('@');
    const primaryOf = at >= 0 ? context.nodeAt(Number(words[at + 3])) : instance === 'master' ? subject : undefined;
    switch (channel) {
      case '+sdown':
      case '-sdown': {
        if (subject === undefined) return [];
        const down = channel === '+sdown';
        const events: Report[] = [{ kind: 'sentinel.sdown', actor: id, data: { node: subject, down } }];
        if (instance === 'master') events.push(state(down ? 'subjectively-down' : 'monitoring'));
        return events;
      }
      case '+odown':
      case '-odown': {
        if (subject === undefined) return [];
        const [votes, quorum] = (words[5] ?? '0/0').split('/').map(Number) as [number, number];
        const down = channel === '+odown';
        return [
          { kind: 'sentinel.odown', actor: id, data: { primary: subject, votes: down ? votes : 0, quorum, down } },
          state(down ? 'objectively-down' : 'monitoring'),
        ];
      }
      case '+new-epoch':
        this.epoch = Number(words[0]);
        return [];
      case '+vote-for-leader': {
        this.epoch = Number(words[1]);
        const leader = context.sentinelWithRunId(words[0]!) ?? words[0]!;
        const events: Report[] = [{ kind: 'sentinel.vote', actor: id, data: { epoch: this.epoch, leader } }];
        if (leader === id) events.push(state('electing'));
        return events;
      }
      case '+elected-leader':
        // Sentinel does not say how many votes it won: at least the number it needed.
        return [
          {
            kind: 'sentinel.elected',
            actor: id,
            data: { epoch: this.epoch, votes: context.needed, needed: context.needed },
          },
        ];
      case '+failover-state-select-slave':
        if (subject === undefined) return [];
        return [
          {
            kind: 'failover.start',
            actor: id,
            data: { group: context.group, primary: subject, epoch: this.epoch, manual: false },
          },
          state('failing-over'),
        ];
      case '+failover-state-wait-promotion':
        // The leader has just sent REPLICAOF NO ONE to this replica: it is a primary from now.
        if (subject === undefined) return [];
        this.promoted = subject;
        return [
          {
            kind: 'redis.role',
            actor: subject,
            data: { role: 'primary', of: null, reason: `promoted by ${id} (epoch ${this.epoch})` },
          },
        ];
      case '+promoted-slave':
        if (subject === undefined || primaryOf === undefined) return [];
        return [
          {
            kind: 'failover.promote',
            actor: id,
            data: { group: context.group, from: primaryOf, to: subject, epoch: this.epoch },
          },
        ];
      case '+switch-master': {
        const from = context.nodeAt(Number(words[2]));
        const to = context.nodeAt(Number(words[4]));
        if (from === undefined || to === undefined) return [];
        return [
          { kind: 'sentinel.switch', actor: id, data: { group: context.group, from, to, epoch: this.epoch } },
          state('monitoring'),
        ];
      }
      case '+slave-reconf-sent':
      case '+convert-to-slave':
      case '+fix-slave-config': {
        const of = channel === '+slave-reconf-sent' ? this.promoted : primaryOf;
        if (subject === undefined || of === null || of === undefined) return [];
        const why = {
          '+slave-reconf-sent': `re-pointed to ${of} by ${id} in the failover`,
          '+convert-to-slave': `turned into a replica of ${of} by ${id}`,
          '+fix-slave-config': `re-pointed by ${id} at ${of} (+fix-slave-config)`,
        }[channel];
        return [{ kind: 'redis.role', actor: subject, data: { role: 'replica', of, reason: why } }];
      }
      default:
        if (channel.startsWith('-failover-abort'))
          return [
            { kind: 'failover.abort', actor: id, data: { group: context.group, reason: channel.slice(1) } },
            state('monitoring'),
          ];
        return [];
    }
  }
}
