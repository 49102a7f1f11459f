import { connect, createServer, type Socket } from 'node:net';

/** A relay listening on a loopback port, and how to stop it with every connection it made. */
export interface LoopbackRelay {
  port: number;
  close(): void;
}

/**
 * Listens on a free loopback port; each connection made to it opens one to `targetPort`, and
 * `join` carries bytes between the two as the caller models the link (delays, cuts, lag).
 * Errors on either socket are the other side's to show (a closed connection), so they are
 * swallowed here. `close` stops listening, calls `stop` (the caller's timers) and destroys every
 * socket still open.
 */
export async function startLoopbackRelay(
  /** The port to connect to, or how to find it when a connection comes (a server's front listens before its server). */
  targetPort: number | (() => number),
  join: (downstream: Socket, upstream: Socket) => void,
  stop: () => void = () => undefined,
): Promise<LoopbackRelay> {
  const sockets = new Set<Socket>();
  const server = createServer((downstream) => {
    const upstream = connect(typeof targetPort === 'number' ? targetPort : targetPort(), '127.0.0.1');
    for (const s of [downstream, upstream]) {
      sockets.add(s);
      s.setNoDelay(true);
      s.on('error', () => undefined);
      s.once('close', () => sockets.delete(s));
    }
    join(downstream, upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () => {
      server.close();
      stop();
      for (const s of sockets) s.destroy();
    },
  };
}
