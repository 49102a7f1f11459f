import type { Reply } from '../../redis/reply';
import type { LabelSource, Network } from '../../net/network';
import type { Sim } from '../../sim/sim';
import type { Process } from '../process/process';
import type { RedisNode, WaitReply } from '../server/redisNode';
import { pipelineLine, replyLine } from '../server/replyLine';
import { unixOfLocal } from '../process/unixClock';

/**
 * What came back for one request: Redis's reply, or nothing before the timeout. When the write
 * was followed by WAIT and fewer replicas acknowledged than asked, `refusal` says so: Redis
 * answered the write (its reply is `reply`), but the client library will not count it (like
 * Redisson after its WAIT), so an acquire is a "not now" and a renewal unconfirmed.
 */
export type RpcResult =
  | { ok: true; reply: Reply; refusal?: string; releaseRefused?: boolean; lease?: KeyLease }
  | { ok: false; reason: 'timeout' };

/**
 * The lease a key had on the node just after the command ran: its PTTL then (null when the key
 * has no expiry, undefined when the key is not there). Asked for by an acquire, whose command
 * may set the expiry anywhere (an argument, or inside a script), so the client records what
 * Redis actually did rather than what it meant to ask for.
 */
export interface KeyLease {
  key: string;
  pttlMs: number | null | undefined;
}

/** The text a request's arrow shows on the timeline, built from its argv when first read. */
export type CommandLabeler = (argv: readonly string[]) => string;

/**
 * A client's connection to Redis nodes: one request, one answer, with an optional timeout.
 *
 * A timeout is where distributed systems get their "ambiguous outcome": the client gives up
 * (`request.timeout`), but the command may well have run on the node (`redis.command`), and its
 * answer may still arrive later (`request.late`). The trace keeps both sides. A duplicated reply
 * is answered once; the copy is ignored.
 */
export class Rpc {
  /**
   * Labels of the commands sent, by argv: a recipe that sends the same argv again and again
   * (a contended acquire, a release) shares one label, which the trace then holds once.
   */
  private readonly lines = new Map<string[], CommandLine>();

  constructor(
    readonly sim: Sim,
    readonly network: Network,
    readonly process: Process,
    /** Local-clock ms to wait for an answer, or null to wait forever. */
    private readonly timeoutMs: number | null,
  ) {}

  /**
   * Sends `argv` to `address`; `done` runs exactly once, on the reply or on the timeout. The
   * request's label (and the reply's) is only built if someone reads the events that carry it.
   * With `leaseOf`, the reply carries that key's lease as the node had it after the command.
   */
  call(
    address: RedisNode,
    argv: string[],
    labeler: CommandLabeler,
    done: (result: RpcResult) => void,
    timeoutMs = this.timeoutMs,
    leaseOf?: string,
  ): void {
    // A Sentinel-aware address names whichever node is primary as the request leaves; a
    // cluster address, the node that serves the command's key slot.
    const node = address.resolve(argv, this.process.id);
    const line = this.lineOf(argv, labeler);
    const request = new Request(this, node, line, done, leaseOf);
    request.msg = this.network.send(this.process.id, node.process, line, arriveAtNode, request);
    if (timeoutMs !== null) request.timer = this.process.setTimer(timeoutMs, timeOut, request);
  }

  private lineOf(argv: string[], labeler: CommandLabeler): CommandLine {
    let line = this.lines.get(argv);
    if (line === undefined || line.labeler !== labeler) {
      // Most argvs are made once per call and never seen again: the map stays small.
      if (this.lines.size >= 32) this.lines.clear();
      this.lines.set(argv, (line = new CommandLine(argv, labeler)));
    }
    return line;
  }
}

/** A command as its arrow on the timeline shows it, formatted on the first read and kept. */
class CommandLine implements LabelSource {
  private text: string | null = null;

  constructor(
    readonly argv: string[],
    readonly labeler: CommandLabeler,
  ) {}

  label(): string {
    return (this.text ??= this.labeler(this.argv));
  }
}

/**
 * One request in flight and its bookkeeping. A plain object with shared callbacks rather than
 * nested closures; the trace keeps only its command line, not the request, so the request and
 * the client callback it holds are let go of once it is answered.
 */
class Request {
  msg = 0;
  timer: number | null = null;
  private settled = false;
  private done: ((result: RpcResult) => void) | null;
  /** The life of the client that asked: a reply reaching a later life (after a crash) answers nobody. */
  private readonly life: Process['owner'];

  constructor(
    readonly rpc: Rpc,
    readonly node: RedisNode,
    readonly line: CommandLine,
    done: (result: RpcResult) => void,
    /** The key whose lease the reply reports (see KeyLease), if any. */
    private readonly leaseOf: string | undefined,
  ) {
    this.done = done;
    this.life = rpc.process.owner;
  }

  /** The node answered (with WAIT, both replies travel once WAIT's is in): send them back. */
  respond(reply: Reply, waited?: WaitReply): void {
    const line = waited ? pipelineLine(reply, waited.acks) : replyLine(reply);
    const lease = this.leaseOf === undefined ? undefined : leaseOn(this.node, this.leaseOf);
    this.rpc.network.send(this.node.id, this.rpc.process, line, arriveAtClient, new Answer(this, reply, waited, lease));
  }

  /** A reply reached the client: the first copy settles the request, later ones are noted. */
  answered(reply: Reply, waited: WaitReply | undefined, lease: KeyLease | undefined): void {
    const { sim } = this.rpc;
    // The connection died with the process that sent the request: the restarted process never
    // asked, so it must not go on with the old life's steps.
    if (this.life !== this.rpc.process.owner) return;
    if (this.settled) {
      if (this.timer === null) return; // a duplicated reply: the first copy was already handled
      this.timer = null;
      sim.record('request.late', this.rpc.process.id, { msg: this.msg, from: this.node.id, label: this.line.label() });
      return;
    }
    if (this.timer !== null) sim.kernel.cancel(this.timer);
    this.timer = null;
    const result: RpcResult = waited ? { ok: true, reply, ...refusalOf(waited) } : { ok: true, reply };
    if (lease !== undefined) result.lease = lease;
    this.settle(result);
  }

  timedOut(): void {
    if (this.settled) return;
    this.rpc.sim.record('request.timeout', this.rpc.process.id, {
      msg: this.msg,
      to: this.node.id,
      label: this.line.label(),
    });
    this.settle({ ok: false, reason: 'timeout' });
  }

  private settle(result: RpcResult): void {
    const done = this.done!;
    this.settled = true;
    this.done = null;
    done(result);
  }
}

/** A reply on its way back, and the request it answers. */
class Answer {
  constructor(
    readonly request: Request,
    readonly reply: Reply,
    readonly waited: WaitReply | undefined,
    readonly lease: KeyLease | undefined,
  ) {}
}

/** A request's timer ran out (one function for every request: a client sends thousands). */
const timeOut = (request: Request): void => request.timedOut();

/** `key`'s PTTL on `node` now, as Redis would answer it (read without touching the key). */
function leaseOn(node: RedisNode, key: string): KeyLease {
  const expiresAtMs = node.server.expiryOf(key, false);
  if (expiresAtMs === undefined) return { key, pttlMs: undefined };
  return { key, pttlMs: expiresAtMs === null ? null : Math.max(0, expiresAtMs - unixOfLocal(node.process.localNow())) };
}

/** The client library's reading of WAIT's count: too few acknowledgements is its refusal. */
export function refusalOf(waited: WaitReply): { refusal?: string; releaseRefused?: boolean } {
  const acked = waited.acks.type === 'integer' ? Number(waited.acks.value) : 0;
  if (acked >= waited.replicas) return {};
  return { refusal: `WAIT confirmed ${acked} of ${waited.replicas} replicas`, releaseRefused: waited.releaseRefused };
}

// Network callbacks shared by every request.
const arriveAtNode = (request: Request): void =>
  request.node.execute(request.line.argv, request.rpc.process.id, request.msg, (reply, waited) =>
    request.respond(reply, waited),
  );
const arriveAtClient = (answer: Answer): void => answer.request.answered(answer.reply, answer.waited, answer.lease);
