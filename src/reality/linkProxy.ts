import type { Socket } from 'node:net';
import { startLoopbackRelay, type LoopbackRelay } from './loopbackRelay';
import type { RealNetwork } from './realNetwork';
import { RespFramer } from './respFrames';

/** A message the proxy dropped, as the harness records it (net.drop, and a lost reply's net.send). */
export interface Drop {
  from: string;
  to: string;
  /** Which command on the client → node link it was (1 for the first), or answered: a reply shares its command's. */
  seq: number;
  reply: boolean;
  reason: 'loss' | 'partition';
  /** When it was sent and when it would have arrived, on this process's monotonic clock (real ms). */
  sentAtReal: number;
  atReal: number;
}

interface LinkProxyOptions {
  targetPort: number;
  /** The two ends as the scenario names them: the client, and the node (or resource) it reaches here. */
  client: string;
  node: string;
  network: RealNetwork;
  /** Real ms per scenario ms. */
  scale: number;
  /**
   * Redis's protocol: each RESP frame is a message, lost or delayed whole, and every drop is
   * reported. Without it (the resource's HTTP) each chunk is passed on whole, only delayed.
   */
  resp: boolean;
  onDrop?: (drop: Drop) => void;
  /** Told +1 when a message (or a close) starts on its way through the proxy and -1 when it has arrived or been dropped. */
  inFlight?: (change: 1 | -1) => void;
}

/**
 * A TCP proxy on loopback for one client ↔ node pair: every connection the client opens to the
 * node goes through it, and each message meets the fate the scenario's network gives it on its
 * directed link (realNetwork.ts), drawn when it is sent, as the simulator draws it:
 * - it is delayed by its link's latency, per message and per direction, keeping the order it was
 *   sent in (the simulator only reorders when asked to, which is refused; a uniform delay could
 *   let a message overtake one sent within a few ms before it there, never here);
 * - it is lost whole (loss, or a partition cutting its link when it is sent or when it would
 *   arrive: the simulator drops a message whose link was cut while it was on the wire).
 * The proxy sits outside both ends, so a message sent just before its sender is paused still
 * arrives on time, and one sent to a paused process waits in its socket until it runs again.
 * Its connections open even through a cut link: a partition drops messages, not the client's
 * belief that the server exists.
 */
export function startLinkProxy(options: LinkProxyOptions): Promise<LoopbackRelay> {
  const { client, node, network, scale } = options;
  const lanes = new Set<Lane>();
  let commands = 0;
  const join = (downstream: Socket, upstream: Socket) => {
    const up = new Lane(options.inFlight);
    const down = new Lane(options.inFlight);
    lanes.add(up).add(down);
    // The commands Redis has been given on this connection and not answered yet: its replies come in this order.
    const unanswered: number[] = [];
    const carry = (from: string, to: string, lane: Lane, seq: number, reply: boolean, deliver: () => void) => {
      const sentAtReal = performance.now();
      const fate = network.send(from, to);
      const cutAtSend = network.cut(from, to);
      lane.later(fate.delayMs * scale, () => {
        const reason = fate.lost ? 'loss' : cutAtSend || network.cut(from, to) ? 'partition' : null;
        if (reason === null) deliver();
        else options.onDrop?.({ from, to, seq, reply, reason, sentAtReal, atReal: performance.now() });
      });
    };
    if (options.resp) {
      const commandFrames = new RespFramer();
      const replyFrames = new RespFramer();
      downstream.on('data', (chunk: Buffer) => {
        for (const frame of commandFrames.push(chunk)) {
          const seq = ++commands;
          carry(client, node, up, seq, false, () => {
            unanswered.push(seq);
            if (upstream.writable) upstream.write(frame);
          });
        }
      });
      upstream.on('data', (chunk: Buffer) => {
        for (const frame of replyFrames.push(chunk))
          carry(
            node,
            client,
            down,
            unanswered.shift() ?? 0,
            true,
            () => downstream.writable && downstream.write(frame),
          );
      });
    } else {
      downstream.on('data', (chunk: Buffer) =>
        carry(client, node, up, 0, false, () => upstream.writable && upstream.write(chunk)),
      );
      upstream.on('data', (chunk: Buffer) =>
        carry(node, client, down, 0, true, () => downstream.writable && downstream.write(chunk)),
      );
    }
    // A side that closes ends the other once what it sent before has been carried, and only
    // ends it: a request already sent is still served (a slow write lands after its writer has
    // gone, as in the simulator), and the answer goes nowhere.
    downstream.once('close', () => up.later(0, () => upstream.end()));
    upstream.once('close', () => down.later(0, () => downstream.end()));
  };
  return startLoopbackRelay(options.targetPort, join, () => {
    for (const lane of lanes) lane.stop();
  });
}

/**
 * One direction of one connection: each act runs `delayMs` after it was queued, but never before
 * the act queued before it. One timer at a time, so two acts due in the same millisecond keep
 * their order (Node's timers of different lengths need not).
 */
class Lane {
  private readonly queue: { due: number; act: () => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly inFlight: (change: 1 | -1) => void = () => undefined) {}

  later(delayMs: number, act: () => void): void {
    const due = Math.max(performance.now() + delayMs, this.queue.at(-1)?.due ?? 0);
    this.queue.push({ due, act });
    this.inFlight(1);
    if (this.queue.length === 1) this.arm();
  }

  stop(): void {
    clearTimeout(this.timer);
    for (const _ of this.queue) this.inFlight(-1);
    this.queue.length = 0;
  }

  private arm(): void {
    const head = this.queue[0];
    if (head) this.timer = setTimeout(() => this.fire(), Math.max(0, head.due - performance.now()));
  }

  /**
   * Runs every act that is due, then waits for the next. The timer may fire before the head is
   * due: libuv counts whole milliseconds on a loop time read at the start of its iteration, so a
   * 60 ms delay once came out as 58.96 ms. Then nothing runs yet, and the timer is armed again.
   */
  private fire(): void {
    while (this.queue.length > 0 && this.queue[0]!.due <= performance.now()) {
      this.queue.shift()!.act();
      this.inFlight(-1);
    }
    this.arm();
  }
}
