import { formatReply } from '../redis/cliFormat';
import type { Reply } from '../redis/reply';
import type { LabelSource, Network } from '../net/network';
import type { Sim } from '../sim/sim';
import type { Process } from './process';
import type { RedisNode } from './redisNode';

/** What came back for one request: Redis's reply, or nothing before the timeout. */
export type RpcResult = { ok: true; reply: Reply } | { ok: false; reason: 'timeout' };

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
   */
  call(address: RedisNode, argv: string[], labeler: CommandLabeler, done: (result: RpcResult) => void, timeoutMs = this.timeoutMs): void {
    // A Sentinel-aware address names whichever node is primary as the request leaves; a
    // cluster address, the node that serves the command's key slot.
    const node = address.resolve(argv, this.process.id);
    const request = new Request(this, node, argv, labeler, done);
    request.msg = this.network.send(this.process.id, node.process, request, arriveAtNode, request);
    if (timeoutMs !== null) request.timer = this.process.setTimer(timeoutMs, () => request.timedOut());
  }
}

/**
 * One request in flight and its bookkeeping. A plain object with shared callbacks rather than
 * nested closures: a contended run makes tens of thousands of requests, and the trace keeps
 * each one as its message's label, so it must not hold on to the client's callbacks.
 */
class Request implements LabelSource {
  msg = 0;
  timer: number | null = null;
  private settled = false;
  private done: ((result: RpcResult) => void) | null;

  constructor(
    readonly rpc: Rpc,
    readonly node: RedisNode,
    readonly argv: string[],
    private readonly labeler: CommandLabeler,
    done: (result: RpcResult) => void,
  ) {
    this.done = done;
  }

  label(): string {
    return this.labeler(this.argv);
  }

  /** The node answered (WAIT may answer later than the command ran): send the reply back. */
  respond(reply: Reply): void {
    const answer = new Answer(this, reply);
    this.rpc.network.send(this.node.id, this.rpc.process, answer, arriveAtClient, answer);
  }

  /** A reply reached the client: the first copy settles the request, later ones are noted. */
  answered(reply: Reply): void {
    const { sim } = this.rpc;
    if (this.settled) {
      if (this.timer === null) return; // a duplicated reply: the first copy was already handled
      this.timer = null;
      sim.record('request.late', this.rpc.process.id, { msg: this.msg, from: this.node.id, label: this.label() });
      return;
    }
    if (this.timer !== null) sim.kernel.cancel(this.timer);
    this.timer = null;
    this.settle({ ok: true, reply });
  }

  timedOut(): void {
    if (this.settled) return;
    this.rpc.sim.record('request.timeout', this.rpc.process.id, { msg: this.msg, to: this.node.id, label: this.label() });
    this.settle({ ok: false, reason: 'timeout' });
  }

  private settle(result: RpcResult): void {
    const done = this.done!;
    this.settled = true;
    this.done = null;
    done(result);
  }
}

/** A reply on its way back: which request it answers; its label is the reply as redis-cli shows it. */
class Answer implements LabelSource {
  constructor(
    readonly request: Request,
    readonly reply: Reply,
  ) {}

  label(): string {
    return formatReply(this.reply);
  }
}

// Network callbacks shared by every request.
const arriveAtNode = (request: Request): void =>
  request.node.execute(request.argv, request.rpc.process.id, request.msg, (reply) => request.respond(reply));
const arriveAtClient = (answer: Answer): void => answer.request.answered(answer.reply);
