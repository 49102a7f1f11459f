import type { Process } from '../process/process';
import type { SentinelGroupView } from './sentinelPeers';

/** The sentinel that says hello: who it is, and the configuration it holds now. */
export interface HelloSender {
  readonly id: string;
  readonly process: Process;
  readonly primaryId: string;
  readonly configEpoch: number;
}

/**
 * Sentinel's hello messages, as far as a failover needs them: a sentinel that has a new
 * configuration sends it to every other sentinel, again each beat, until each confirms it.
 */
export class Hellos {
  private readonly unconfirmed = new Set<string>();

  constructor(
    private readonly self: HelloSender,
    private readonly group: SentinelGroupView,
  ) {}

  /** Some sentinel has not confirmed the newest configuration yet. */
  get pending(): boolean {
    return this.unconfirmed.size > 0;
  }

  /** The configuration changed here: every other sentinel is to hear it. */
  announce(): void {
    for (const other of this.group.sentinels) if (other.id !== this.self.id) this.unconfirmed.add(other.id);
    this.resend();
  }

  /** Sends the configuration to every sentinel that has not confirmed it. */
  resend(): void {
    for (const id of this.unconfirmed) this.tell(id);
  }

  private tell(otherId: string): void {
    const other = this.group.sentinels.find((s) => s.id === otherId);
    if (!other) return;
    const { id, process, primaryId, configEpoch } = this.self;
    const network = this.group.network;
    network.send(id, other.process, `hello ${this.group.name} ${primaryId} epoch ${configEpoch}`, () => {
      other.adopt(primaryId, configEpoch);
      network.send(other.id, process, 'ok', () => this.unconfirmed.delete(otherId));
    });
  }
}
