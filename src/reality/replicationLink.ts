import { connect, createServer, type Socket } from 'node:net';

/**
 * The link from a replica to its configured primary, with the scenario's replication `lag`: a
 * TCP proxy the replica's `replicaof` points at. What the primary sends (the snapshot, then the
 * stream of writes) reaches the replica `lagMs` later, in order; what the replica sends (PSYNC,
 * REPLCONF ACK) goes through at once, as in the simulator, where only the primary's shipping of
 * writes waits for the lag (`ReplicationPrimary.ship`).
 *
 * The simulator holds a write for its lag on the primary's side, so a primary that crashes
 * takes with it every write it had not shipped yet: that is the window a failover loses. So
 * here, when the primary's end of the link closes (the primary died), whatever the link still
 * holds is dropped rather than delivered, and the replica's end is closed at once, as its
 * connection to a dead primary is.
 */
export async function startReplicationLink(
  primaryPort: number,
  lagMs: number,
): Promise<{ port: number; close: () => void }> {
  const sockets = new Set<Socket>();
  const server = createServer((replica) => {
    const primary = connect(primaryPort, '127.0.0.1');
    const held = new Set<NodeJS.Timeout>();
    for (const s of [replica, primary]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('error', () => undefined);
      s.once('close', () => sockets.delete(s));
    }
    replica.on('data', (chunk) => primary.writable && primary.write(chunk));
    replica.once('close', () => primary.destroy());
    let last = 0;
    primary.on('data', (chunk) => {
      const now = performance.now();
      last = Math.max(last, now + lagMs);
      const timer = setTimeout(() => {
        held.delete(timer);
        if (replica.writable) replica.write(chunk);
      }, last - now);
      held.add(timer);
    });
    primary.once('close', () => {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      replica.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}
