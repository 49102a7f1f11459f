import { createActor, type Actor } from 'xstate';
import type { Prng } from '../../sim/prng';
import type { Sim } from '../../sim/sim';
import type { LocalClockMs } from '../../sim/time';
import { Process } from '../process/process';
import { MachineTies } from '../process/machineTies';
import { chooseReplica } from '../server/replicaChoice';
import type { NodeInfo, RedisServerNode } from '../server/redisNode';
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
import { Hellos } from './hellos';

/**
 * One Sentinel process: it watches its group's nodes (NodeWatch: PING, INFO, SDOWN, strays),
 * agrees with the others that the primary is objectively down, runs for leader after a random
 * delay, and, elected, promotes the best replica and re-points the others; strays (an old
 * primary back) become replicas of the new primary and throw their data away. Its machine
 * (sentinelMachine.ts) makes every decision; this class talks with the other sentinels
 * (opinions, votes, epochs, hellos), tells the machine, and carries out its effects.
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
  /** The timer that will run for leader after the random delay, until it fires or a vote for another cancels it. */
  private runTimer: number | null = null;
  /** The replica the current failover promotes, and the primary it replaces. */
  private failover: { chosen: RedisServerNode; from: string; epoch: number } | null = null;
  /** Its configuration, sent to the other sentinels until each confirms. */
  private readonly hellos: Hellos;
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
    this.hellos = new Hellos(this, group);
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
      this.watch.forget();
      this.opinions.clear();
      this.odown = false;
      this.failover = null; // a failover under way died with the process
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

  /** Starts the once-a-second loop (again, after the run went quiet): the first beat always looks
   *  (what woke the run, a healed link say, may show a node back); later ones stop when all is done. */
  start(): void {
    if (this.awake || this.process.crashed) return;
    this.awake = true;
    this.watch.begin();
    let first = true;
    const tick = () => {
      if (!first && !this.group.keepRunning()) {
        this.awake = false;
        this.group.sleeping(() => this.start());
        return;
      }
      first = false;
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
      this.hellos.pending ||
      this.group.nodes.some((node) => this.watch.disagrees(node, this.primaryId))
    );
  }

  private tick(): void {
    this.watch.poll();
    this.watch.look();
    if (this.watch.isDown(this.primaryId)) {
      // The machine may have moved on (an aborted failover) while the primary is still down.
      this.send({ type: 'SDOWN' });
      this.send({ type: 'ASK' });
    }
    this.hellos.resend();
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

  /** The replica this sentinel is promoting, if it is failing over. */
  get promotingId(): string | null {
    return this.failover?.chosen.id ?? null;
  }

  /** The primary is objectively down, or this sentinel is failing it over (Redis: SRI_O_DOWN, SRI_FAILOVER_IN_PROGRESS). */
  get primaryInTrouble(): boolean {
    return this.odown || this.failover !== null;
  }

  /** A node answered INFO: the replica being promoted that reports a primary is promoted (Redis's
   *  leader waits for that, not for the OK to REPLICAOF NO ONE); any answer may show a stray due. */
  infoArrived(nodeId: string, info: NodeInfo): void {
    if (nodeId === this.promotingId && info.role === 'primary') this.send({ type: 'PROMOTED' });
    this.send({ type: 'INFO' });
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
    // Replicas of a primary in trouble are asked for INFO every second, starting now.
    if (down) this.watch.pollReplicas();
  }

  /** Effect: waits a random delay (so sentinels do not all run at once), then runs for leader. */
  scheduleRun(): void {
    const { failoverTimeoutMs } = this.group.settings;
    this.nextAttemptMs = this.now() + 2 * failoverTimeoutMs;
    const delayMs = this.random.int(0, MAX_DESYNC_MS);
    this.runTimer = this.process.setTimer(delayMs, () => {
      this.runTimer = null;
      this.send({ type: 'RUN' });
    });
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
      // Having voted for someone else, do not start a failover of our own for a while (not even one about to start).
      if (request.leader !== this.id) {
        this.nextAttemptMs = this.now() + this.random.int(0, MAX_DESYNC_MS) + 2 * this.group.settings.failoverTimeoutMs;
        if (this.runTimer !== null) this.sim.kernel.cancel(this.runTimer);
        this.runTimer = null;
      }
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
    this.failover = { chosen, from, epoch };
    group.network.send(this.id, chosen.process, 'REPLICAOF NO ONE', () => {
      chosen.promote(`promoted by ${this.id} (epoch ${epoch})`);
      // The OK tells the leader nothing: it waits for the replica's INFO to report a primary (infoArrived).
      group.network.send(chosen.id, this.process, 'OK', () => undefined);
    });
  }

  /**
   * Effect: the chosen replica is the primary: adopt it, re-point the old primary's replicas
   * and tell the other sentinels. The old primary itself is not told (Redis does not): once it
   * is back and has reported itself a primary for a while, it is a stray like any other.
   */
  completeFailover(): void {
    const { group } = this;
    const { chosen, from, epoch } = this.failover!;
    this.failover = null;
    this.sim.record('failover.promote', this.id, { group: group.name, from, to: chosen.id, epoch });
    this.adopt(chosen.id, epoch, from);
    for (const node of group.nodes) if (node !== chosen && node.id !== from) this.reconfigure(node);
    this.hellos.announce();
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

  /** Effect: strays whose time has come (NodeWatch judges) are told whom to follow. */
  reconfigureStrays(): void {
    for (const node of this.watch.strays()) this.reconfigure(node);
  }

  private reconfigure(node: RedisServerNode): void {
    const primary = this.primaryId;
    this.group.network.send(this.id, node.process, `REPLICAOF ${primary}`, () =>
      node.follow(primary, `re-pointed by ${this.id}`),
    );
  }
}
