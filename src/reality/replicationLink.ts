import { startLoopbackRelay, type LoopbackRelay } from './loopbackRelay';

/** `REPLCONF listening-port <port>` as a replica sends it before PSYNC (RESP, the port being the replica's own). */
const LISTENING_PORT = /listening-port\r\n\$\d+\r\n(\d+)\r\n/i;

/**
 * The address a primary with lagging replicas is known by, to everyone: a TCP proxy in front of
 * it. Every connection passes through at once, except a replica's replication link (known by the
 * `REPLCONF listening-port` it sends first): what the primary sends on it (the snapshot, then the
 * stream of writes) reaches the replica `lagMs(its port)` later, in order, while what the
 * replica sends (PSYNC, ACKs) goes through at once, as in the simulator, where only the
 * primary's shipping of writes waits for a replica's lag (`ReplicationPrimary.ship`).
 *
 * The simulator holds a write for its lag on the primary's side, so a primary that crashes takes
 * with it every write it had not shipped yet: that is the window a failover loses. So here, when
 * the primary's end of a link closes (the primary died), whatever the link still holds is
 * dropped rather than delivered, and the replica's end is closed at once, as its connection to a
 * dead primary is.
 *
 * Everyone (clients, sentinels, replicas) dials this one address, so Sentinel sees each replica
 * follow the very primary it monitors; were the proxy only on the replica's side, Sentinel would
 * re-point the replica at the primary itself, past the lag, once its failover-timeout had passed
 * (`+fix-slave-config`).
 */
export function startPrimaryFront(primaryPort: number, lagMs: (replicaPort: number) => number): Promise<LoopbackRelay> {
  return startLoopbackRelay(primaryPort, (downstream, primary) => {
    let lag = 0;
    let heard = '';
    downstream.on('data', (chunk: Buffer) => {
      if (heard.length < 4096) {
        heard += chunk.toString('latin1');
        const port = LISTENING_PORT.exec(heard)?.[1];
        if (port !== undefined) lag = lagMs(Number(port));
      }
      if (primary.writable) primary.write(chunk);
    });
    downstream.once('close', () => primary.destroy());
    const held = new Set<NodeJS.Timeout>();
    let last = 0;
    primary.on('data', (chunk: Buffer) => {
      if (lag <= 0 && held.size === 0) {
        if (downstream.writable) downstream.write(chunk);
        return;
      }
      const now = performance.now();
      last = Math.max(last, now + lag);
      const timer = setTimeout(() => {
        held.delete(timer);
        if (downstream.writable) downstream.write(chunk);
      }, last - now);
      held.add(timer);
    });
    primary.once('close', () => {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      downstream.destroy();
    });
  });
}
