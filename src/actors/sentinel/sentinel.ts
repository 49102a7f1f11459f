import { createActor, type Actor } from 'xstate';
import type { Prng } from '../../sim/prng';
import type { Sim } from '../../sim/sim';
import type { LocalClockMs } from '../../sim/time';
import { Process } from '../process/process';
import { MachineTies } from '../process/machineTies';
import { chooseReplica } from '../server/replicaChoice';
import type { RedisServerNode } from '../server/redisNode';
import { ProcessClock } from '../process/processClock';
import {
  bindSentinelEffects,
  unbindSentinelEffects,
  sentinelContext,
  sentinelMachine,
  type SentinelEffects,
  type SentinelEvent,
  type SentinelLaneState,
} from './sentinelMachine';
import type { DownAnswer, SentinelGroupView, SentinelPeer, VoteRequest } from './sentinelPeers';
import { MAX_DESYNC_MS, OPINION_VALID_MS, PING_PERIOD_MS } from './sentinelTiming';
import { NodeWatch, type NodeWatchListener } from './nodeWatch';

/**
 * One Sentinel process. Every second it PINGs every node of its group; a primary silent for
 * down-after-milliseconds is subjectively down; when `quorum` sentinels agree it is
 * objectively down; then, after a random delay, it asks the others to elect it leader of a new
 * epoch and, with a majority, promotes the best replica and re-points the others. Nodes that
 * disagree with the configuration later (the old primary coming back) are turned into replicas
 * of the new primary, which makes them throw their data away.
 *
 * Its machine (sentinelMachine.ts) makes every decision; its NodeWatch keeps what it has seen of
 * the Redis nodes (replies, roles, SDOWN); this class talks with the other sentinels (opinions,
 * votes, epochs), tells the machine, and carries out the effects it asks for (SentinelEffects).
 */
export class Sentinel implements SentinelEffects, SentinelPeer, NodeWatchListener {
  readonly process: Process;
  private actor: Actor<typeof sentinelMachine>;
  /** Empty until the machine starts, so its first state ('monitoring') is recorded for the lane. */
  state: SentinelLaneState | '' = '';
  /** The primary this sentinel believes in, and the epoch of that configuration. */
  primaryId: string;
  configEpoch = 0;
  currentEpoch = 0;
  private readonly watch: NodeWatch;
  /** What the other sentinels answered (is the primary down?), and when. */
  private readonly opinions = new Map<string, { down: boolean; atMs: number }>();
  private odown = false;
  /** This sentinel's vote: the leader it chose for `epoch`. */
  private vote = { epoch: 0, leader: '' };
  private readonly votesForMe = new Set<string>();
  /** No new failover attempt before this (Redis: 2 × failover-timeout after the last one). */
  private nextAttemptMs = Number.NEGATIVE_INFINITY;
  /** The replica the current failover promotes, and the primary it replaces. */
  private failover: { chosen: RedisServerNode; from: string; epoch: number } | null = null;
  /** Sentinels that have not confirmed the newest configuration yet. */
  private readonly unconfirmed = new Set<string>();
  private awake = false;
  /** How to cut each machine started (one per life) loose once the run is over. */
  private readonly ties = new MachineTies();

  constructor(
    private readonly sim: Sim,
    readonly id: string,
    private readonly group: SentinelGroupView,
    private readonly random: Prng,
  ) {
    this.process = new Process(sim, id);
    this.watch = new NodeWatch(sim, this.process, group, this);
    this.primaryId = group.primaryId;
    this.actor = this.spawn();
    this.process.onCrash(() => {
      this.actor.stop();
      this.awake = false;
      this.show('crashed');
    });
    // A restarted sentinel reloads its configuration file (primary and epochs survive) and starts over.
    this.process.onRestart(() => {
      this.actor = this.spawn();
      this.resetViews();
      this.start();
    });
  }

  private spawn(): Actor<typeof sentinelMachine> {
    const input = sentinelContext(this.group.settings, this.group.sentinelCount);
    // The machine's delays (election and failover timeouts) are kernel timers on this process's clock.
    const clock = new ProcessClock(this.process);
    const actor = createActor(sentinelMachine, { input, clock });
    bindSentinelEffects(actor, this);
    this.ties.add(() => {
      clock.release();
      unbindSentinelEffects(actor);
    });
    actor.start();
    return actor;
  }

  /** Cuts this sentinel's machines loose from the finished run, as ClientShell.detachMachines does. */
  detachMachines(): void {
    this.ties.cutAll();
  }

  /** Effect: show the machine's new state on the lane (or, from this class, that the process crashed). */
  show(state: SentinelLaneState): void {
    if (state === this.state) return;
    this.state = state;
    this.sim.record('actor.state', this.id, { state });
  }

  private send(event: SentinelEvent): void {
    this.actor.send(event);
  }

  private now(): LocalClockMs {
    return this.process.localNow();
  }

  private resetViews(): void {
    this.watch.forget();
    this.opinions.clear();
    this.odown = false;
  }

  /** Starts the once-a-second loop (again, after the run went quiet and woke up). */
  start(): void {
    if (this.awake || this.process.crashed) return;
    this.awake = true;
    this.watch.begin();
    const tick = () => {
      if (!this.group.keepRunning()) {
        this.awake = false;
        this.group.sleeping(() => this.start());
        return;
      }
      this.tick();
      this.process.setTimer(PING_PERIOD_MS, tick);
    };
    this.process.setTimer(PING_PERIOD_MS, tick);
  }

  /** True while this sentinel is in the middle of something the run should wait for. */
  get busy(): boolean {
    return (
      this.state !== 'monitoring' ||
      this.watch.silentMs(this.primaryId) > PING_PERIOD_MS * 1.5 ||
      this.unconfirmed.size > 0 ||
      this.group.nodes.some((node) => this.watch.disagrees(node, this.primaryId))
    );
  }

  private tick(): void {
    for (const node of this.group.nodes) this.watch.ping(node);
    this.watch.look();
    this.send({ type: 'TICK' });
    if (this.watch.isDown(this.primaryId)) {
      // The machine may have moved on (an aborted failover) while the primary is still down.
      this.send({ type: 'SDOWN' });
      this.send({ type: 'ASK' });
    }
    for (const id of this.unconfirmed) this.tell(id);
  }

  /** The watch holds a node down: for the primary, tell the machine and ask the other sentinels. */
  nodeDown(nodeId: string): void {
    if (nodeId !== this.primaryId) return;
    this.send({ type: 'SDOWN' });
    // Ask the other sentinels at once (Redis asks within its next 100 ms timer tick).
    this.askOthers(false);
  }

  /** The watch heard from a node it held down. */
  nodeUp(nodeId: string): void {
    if (nodeId === this.primaryId) this.primaryBack();
  }

  /** After each look at the nodes: with the primary down, count who agrees. */
  looked(): void {
    if (this.watch.isDown(this.primaryId)) this.checkObjectivelyDown();
  }

  private primaryBack(): void {
    if (this.odown)
      this.sim.record('sentinel.odown', this.id, {
        primary: this.primaryId,
        votes: 0,
        quorum: this.group.settings.quorum,
        down: false,
      });
    this.odown = false;
    this.opinions.clear();
    this.send({ type: 'UP' });
  }

  /** Counts who thinks the primary is down (this sentinel and fresh answers); the machine judges. */
  private checkObjectivelyDown(): void {
    const now = this.now();
    let votes = 1;
    for (const o of this.opinions.values()) if (o.down && now - o.atMs <= OPINION_VALID_MS) votes++;
    this.send({ type: 'OPINIONS', votes, mayRun: now >= this.nextAttemptMs });
  }

  /** Effect: the objectively-down belief after the latest count, recorded when it changes. */
  noteOpinions(down: boolean, votes: number): void {
    if (down !== this.odown)
      this.sim.record('sentinel.odown', this.id, {
        primary: this.primaryId,
        votes,
        quorum: this.group.settings.quorum,
        down,
      });
    this.odown = down;
  }

  /** Effect: waits a random delay (so sentinels do not all run at once), then runs for leader. */
  scheduleRun(): void {
    const { failoverTimeoutMs } = this.group.settings;
    this.nextAttemptMs = this.now() + 2 * failoverTimeoutMs;
    const delayMs = this.random.int(0, MAX_DESYNC_MS);
    this.process.setTimer(delayMs, () => this.send({ type: 'RUN' }));
  }

  /** Effect: a new epoch, with this sentinel's vote for itself. */
  startElection(): void {
    this.currentEpoch++;
    this.vote = { epoch: this.currentEpoch, leader: this.id };
    this.sim.record('sentinel.vote', this.id, { epoch: this.currentEpoch, leader: this.id });
    this.votesForMe.clear();
    this.votesForMe.add(this.id);
  }

  /** Effect: asks the others; while electing, for their votes too, then counts the votes so far. */
  ask(forVotes: boolean): void {
    this.askOthers(forVotes);
    if (forVotes) this.send({ type: 'VOTES', votes: this.votesForMe.size });
  }

  /** Effect: the election is won. */
  noteElected(votes: number, needed: number): void {
    this.sim.record('sentinel.elected', this.id, { epoch: this.currentEpoch, votes, needed });
  }

  /** SENTINEL is-master-down-by-addr to every other sentinel; with `runForLeader`, also a vote request. */
  private askOthers(runForLeader: boolean): void {
    const network = this.group.network;
    const epoch = this.currentEpoch;
    const primary = this.primaryId;
    for (const other of this.group.sentinels) {
      if (other === this) continue;
      const label = runForLeader
        ? `is-master-down-by-addr ${primary} epoch ${epoch} vote ${this.id}`
        : `is-master-down-by-addr ${primary}`;
      network.send(this.id, other.process, label, () => {
        const answer = other.answerDown(primary, runForLeader ? { epoch, leader: this.id } : null);
        network.send(
          other.id,
          this.process,
          `${answer.down ? 'down' : 'up'}${answer.leader ? ` vote ${answer.leader}` : ''}`,
          () => this.onAnswer(other.id, primary, epoch, answer),
        );
      });
    }
  }

  /** Another sentinel asks: is `primary` down for you, and (optionally) will you vote for me? */
  answerDown(primary: string, request: VoteRequest | null): DownAnswer {
    const down = primary === this.primaryId && this.watch.isDown(primary);
    if (!request) return { down, leader: null };
    if (request.epoch > this.currentEpoch) this.currentEpoch = request.epoch;
    if (this.vote.epoch < request.epoch) {
      this.vote = { epoch: request.epoch, leader: request.leader };
      this.sim.record('sentinel.vote', this.id, { epoch: request.epoch, leader: request.leader });
      // Having voted for someone else, do not start a failover of our own for a while.
      if (request.leader !== this.id)
        this.nextAttemptMs = this.now() + this.random.int(0, MAX_DESYNC_MS) + 2 * this.group.settings.failoverTimeoutMs;
    }
    return { down, leader: this.vote.epoch === request.epoch ? this.vote.leader : null };
  }

  private onAnswer(from: string, primary: string, epoch: number, answer: DownAnswer): void {
    if (primary !== this.primaryId) return;
    this.opinions.set(from, { down: answer.down, atMs: this.now() });
    // A late vote from an election already over is counted for nothing: the next one clears them.
    if (answer.leader === this.id && epoch === this.currentEpoch) this.votesForMe.add(from);
    this.send({ type: 'VOTES', votes: this.votesForMe.size });
    if (this.watch.isDown(primary)) this.checkObjectivelyDown();
  }

  /**
   * SENTINEL FAILOVER <group>: promote a replica now, without asking anyone. False when this
   * sentinel cannot: it is down, or its machine will not take it (it is failing over already).
   */
  manualFailover(): boolean {
    if (this.process.crashed || this.process.paused || !this.actor.getSnapshot().can({ type: 'MANUAL' })) return false;
    this.send({ type: 'MANUAL' });
    return true;
  }

  /** Effect: SENTINEL FAILOVER needs no election, but a failover always has an epoch of its own. */
  startManual(): void {
    this.currentEpoch++;
  }

  /** Effect, the leader's part: choose a replica and send it REPLICAOF NO ONE. */
  startFailover(manual: boolean): void {
    const { group } = this;
    const epoch = this.currentEpoch;
    const from = this.primaryId;
    this.sim.record('failover.start', this.id, { group: group.name, primary: from, epoch, manual });
    const chosen = chooseReplica(this.group.nodes, this.watch.seen, this.primaryId, this.watch.down);
    if (!chosen) {
      this.sim.record('failover.abort', this.id, { group: group.name, reason: 'no replica fit to promote' });
      this.send({ type: 'NO_REPLICA' });
      return;
    }
    const failover = (this.failover = { chosen, from, epoch });
    group.network.send(this.id, chosen.process, 'REPLICAOF NO ONE', () => {
      chosen.promote(`promoted by ${this.id} (epoch ${epoch})`);
      // Only the answer to the current failover counts (the machine ignores it once the failover is over).
      group.network.send(
        chosen.id,
        this.process,
        'OK',
        () => this.failover === failover && this.send({ type: 'PROMOTED' }),
      );
    });
  }

  /** Effect: the chosen replica is the primary: adopt it and tell the other nodes and sentinels. */
  completeFailover(): void {
    const { group } = this;
    const { chosen, from, epoch } = this.failover!;
    this.failover = null;
    this.sim.record('failover.promote', this.id, { group: group.name, from, to: chosen.id, epoch });
    this.adopt(chosen.id, epoch, from);
    for (const node of group.nodes) if (node !== chosen) this.reconfigure(node);
    for (const other of group.sentinels) if (other !== this) this.unconfirmed.add(other.id);
    for (const id of this.unconfirmed) this.tell(id);
  }

  /** Effect: the chosen replica did not become primary within failover-timeout. */
  noteFailoverTimedOut(): void {
    const chosen = this.failover?.chosen.id ?? 'the replica';
    this.failover = null;
    this.sim.record('failover.abort', this.id, {
      group: this.group.name,
      reason: `${chosen} did not become primary within failover-timeout`,
    });
  }

  /** Takes a newer configuration as this sentinel's own (+switch-master). */
  adopt(primaryId: string, epoch: number, from = this.primaryId): void {
    if (epoch <= this.configEpoch && primaryId === this.primaryId) return;
    if (epoch < this.configEpoch) return;
    this.configEpoch = epoch;
    this.currentEpoch = Math.max(this.currentEpoch, epoch);
    this.primaryId = primaryId;
    this.watch.newPrimary(primaryId);
    this.odown = false;
    this.opinions.clear();
    this.sim.record('sentinel.switch', this.id, { group: this.group.name, from, to: primaryId, epoch });
    this.group.published(primaryId, epoch);
    this.send({ type: 'SWITCHED' });
  }

  /** Sends our configuration to another sentinel until it confirms (Sentinel's hello messages). */
  private tell(otherId: string): void {
    const other = this.group.sentinels.find((s) => s.id === otherId);
    if (!other) return;
    const { primaryId, configEpoch } = this;
    this.group.network.send(
      this.id,
      other.process,
      `hello ${this.group.name} ${primaryId} epoch ${configEpoch}`,
      () => {
        other.adopt(primaryId, configEpoch);
        this.group.network.send(other.id, this.process, 'ok', () => this.unconfirmed.delete(otherId));
      },
    );
  }

  /** Effect: nodes that disagree with the configuration for a while are told whom to follow. */
  reconfigureStrays(): void {
    for (const node of this.watch.strays(this.primaryId)) this.reconfigure(node);
  }

  private reconfigure(node: RedisServerNode): void {
    const primary = this.primaryId;
    this.group.network.send(this.id, node.process, `REPLICAOF ${primary}`, () =>
      node.follow(primary, `re-pointed by ${this.id}`),
    );
  }
}
