import { createServer, type Socket } from 'node:net';

/**
 * A loopback port that accepts connections and never answers: a Redis node as a client cut off
 * from it by a partition sees it. Every command sent is lost and waits out its timeout, as a
 * message across a partition is dropped in the simulator. The connection itself opens (a
 * partition drops messages, not the client's belief that the server exists).
 */
export async function startBlackHole(): Promise<{ port: number; close: () => void }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.once('close', () => sockets.delete(socket));
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
