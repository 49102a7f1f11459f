import { formatReply } from '../redis/cliFormat';
import type { Reply } from '../redis/reply';
import type { MessageLabel, Network } from '../net/network';
import type { Sim } from '../sim/sim';
import type { Process } from './process';
import type { RedisNode } from './redisNode';

/** What came back for one request: Redis's reply, or nothing before the timeout. */
export type RpcResult = { ok: true; reply: Reply } | { ok: false; reason: 'timeout' };

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
    private readonly sim: Sim,
    private readonly network: Network,
    private readonly process: Process,
    /** Local-clock ms to wait for an answer, or null to wait forever. */
    private readonly timeoutMs: number | null,
  ) {}

  /**
   * Sends `argv` to `node`; `done` runs exactly once, on the reply or on the timeout. The label
   * (and the reply's) is only built if someone reads the trace events that carry it.
   */
  call(address: RedisNode, argv: string[], label: MessageLabel, done: (result: RpcResult) => void, timeoutMs = this.timeoutMs): void {
    const { network, process, sim } = this;
    // A Sentinel-aware address names whichever node is primary as the request leaves; a
    // cluster address, the node that serves the command's key slot.
    const from = process.id;
    const node = address.resolve(argv, from);
    let settled = false;
    let timer: number | null = null;
    const msg = network.send(from, node.process, label, () => {
      // The reply may come later than the command ran: WAIT blocks until replicas acknowledge.
      node.execute(argv, from, msg, (reply) =>
        network.send(node.id, process, () => formatReply(reply), () => {
          if (settled) {
            if (timer === null) return; // a duplicated reply: the first copy was already handled
            timer = null;
            sim.record('request.late', from, { msg, from: node.id, label: labelText(label) });
            return;
          }
          settled = true;
          if (timer !== null) sim.kernel.cancel(timer);
          timer = null;
          done({ ok: true, reply });
        }),
      );
    });
    if (timeoutMs === null) return;
    timer = process.setTimer(timeoutMs, () => {
      if (settled) return;
      settled = true;
      sim.record('request.timeout', from, { msg, to: node.id, label: labelText(label) });
      done({ ok: false, reason: 'timeout' });
    });
  }
}

/** A label's text, building it if it was given as a function. */
function labelText(label: MessageLabel): string {
  return typeof label === 'string' ? label : label();
}
