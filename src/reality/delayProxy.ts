import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy on loopback that holds every chunk for a one-way delay in each direction, in the
 * order it came: the scenario's network latency between real processes. The delay is applied
 * outside both ends, so a message already sent when its sender is paused still arrives on time,
 * and one sent to a paused process waits in its socket until it runs again, as in the simulator.
 */
export async function startDelayProxy(
  targetPort: number,
  delayMs: () => number,
): Promise<{ port: number; close: () => void }> {
  const sockets = new Set<Socket>();
  const server = createServer((downstream) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [downstream, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('error', () => undefined);
      s.once('close', () => sockets.delete(s));
    }
    pipeDelayed(downstream, upstream, delayMs);
    pipeDelayed(upstream, downstream, delayMs);
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

/** Copies `from` to `to`, each chunk (and the close) `delayMs()` later, never reordered. */
function pipeDelayed(from: Socket, to: Socket, delayMs: () => number): void {
  let last = 0;
  const later = (act: () => void) => {
    const now = performance.now();
    last = Math.max(last, now + delayMs());
    setTimeout(act, last - now);
  };
  from.on('data', (chunk) => later(() => to.writable && to.write(chunk)));
  from.once('close', () => later(() => to.destroy()));
}
