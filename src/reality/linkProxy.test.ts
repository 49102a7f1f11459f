import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_FAULTS } from '../net/faults';
import type { LinkOverride } from '../net/network';
import { startLinkProxy, type Drop } from './linkProxy';
import { RealNetwork } from './realNetwork';
import { RespFramer } from './respFrames';

const command = (...argv: string[]) => `*${argv.length}\r\n${argv.map((a) => `$${a.length}\r\n${a}\r\n`).join('')}`;
const fixed = (ms: number) => ({ dist: 'fixed' as const, ms });

/**
 * A stand-in for redis-server: it reads whole commands and answers each `ECHO x` with `+x`, and
 * notes when each command came. The proxy between it and a client is the one under test.
 */
async function echoServer(): Promise<{ server: Server; port: number; got: { text: string; at: number }[] }> {
  const got: { text: string; at: number }[] = [];
  const server = createServer((socket) => {
    const framer = new RespFramer();
    socket.on('data', (chunk: Buffer) => {
      for (const frame of framer.push(chunk)) {
        const text = frame.toString().split('\r\n').at(-2)!;
        got.push({ text, at: performance.now() });
        socket.write(`+${text}\r\n`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, got };
}

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

/** A client A connected to node r1 through a link proxy on `network`; what it receives, as text, with when. */
async function link(links: LinkOverride[]) {
  const redis = await echoServer();
  const network = new RealNetwork(7, { defaults: { ...DEFAULT_FAULTS, latency: fixed(0) }, links });
  const drops: Drop[] = [];
  const flying = { count: 0 };
  const proxy = await startLinkProxy({
    targetPort: redis.port,
    client: 'A',
    node: 'r1',
    network,
    scale: 1,
    resp: true,
    onDrop: (d) => drops.push(d),
    inFlight: (change) => (flying.count += change),
  });
  const socket: Socket = connect(proxy.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const received: { text: string; at: number }[] = [];
  socket.on('data', (chunk: Buffer) =>
    chunk
      .toString()
      .split('\r\n')
      .filter(Boolean)
      .forEach((line) => received.push({ text: line.slice(1), at: performance.now() })),
  );
  closers.push(() => (socket.destroy(), proxy.close(), redis.server.close()));
  return { redis, network, drops, socket, received, flying };
}

const poll = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 5 });

describe('the link proxy', () => {
  it('delays each message by its own direction’s latency', async () => {
    const { redis, socket, received } = await link([
      { from: 'A', to: 'r1', faults: { latency: fixed(120) } },
      { from: 'r1', to: 'A', faults: { latency: fixed(60) } },
    ]);
    const sent = performance.now();
    socket.write(command('ECHO', 'one'));
    await poll(() => expect(received.map((r) => r.text)).toEqual(['one']));
    // Lower bounds only: a busy machine can make either later, never earlier (not even by the
    // fraction of a millisecond a timer may fire early: the proxy waits that out).
    expect(redis.got[0]!.at - sent).toBeGreaterThanOrEqual(120);
    expect(received[0]!.at - redis.got[0]!.at).toBeGreaterThanOrEqual(60);
  });

  it('drops a lost message whole, and carries the next ones intact once the loss ends', async () => {
    const { redis, network, drops, socket, received } = await link([{ from: 'A', to: 'r1', faults: { loss: 1 } }]);
    // The first command, and the first half of the second, in one chunk.
    const second = command('ECHO', 'two');
    socket.write(command('ECHO', 'one') + second.slice(0, 9));
    await poll(() => expect(drops).toHaveLength(1));
    network.setFaults({ loss: 0 }, { from: 'A', to: 'r1' });
    socket.write(second.slice(9) + command('ECHO', 'three'));
    await poll(() => expect(received.map((r) => r.text)).toEqual(['two', 'three']));
    // Redis never saw a byte of the lost command: the stream it read was whole commands only.
    expect(redis.got.map((g) => g.text)).toEqual(['two', 'three']);
    expect(drops[0]).toMatchObject({ from: 'A', to: 'r1', seq: 1, reply: false, reason: 'loss' });
  });

  it('drops a lost reply, and tells which command it answered', async () => {
    const { redis, network, drops, socket, received } = await link([{ from: 'r1', to: 'A', faults: { loss: 1 } }]);
    socket.write(command('ECHO', 'one') + command('ECHO', 'two'));
    await poll(() => expect(drops).toHaveLength(2));
    expect(redis.got.map((g) => g.text)).toEqual(['one', 'two']);
    expect(drops.map((d) => [d.seq, d.reply, d.from, d.to])).toEqual([
      [1, true, 'r1', 'A'],
      [2, true, 'r1', 'A'],
    ]);
    network.setFaults({ loss: 0 }, { from: 'r1', to: 'A' });
    socket.write(command('ECHO', 'three'));
    await poll(() => expect(received.map((r) => r.text)).toEqual(['three']));
  });

  it('drops what a partition cuts, in flight too, and carries messages again once it heals', async () => {
    const { redis, network, drops, socket, received } = await link([
      { from: 'A', to: 'r1', faults: { latency: fixed(200) } },
    ]);
    const sends = vi.spyOn(network, 'send');
    socket.write(command('ECHO', 'in-flight'));
    // Cut once the command is on the wire (the proxy has it): it is lost where it would have arrived.
    await poll(() => expect(sends).toHaveBeenCalledTimes(1));
    network.partition([['A'], ['r1']], false);
    await poll(() => expect(drops).toHaveLength(1));
    expect(drops[0]).toMatchObject({ reason: 'partition', reply: false, seq: 1 });
    network.heal();
    socket.write(command('ECHO', 'healed'));
    await poll(() => expect(received.map((r) => r.text)).toEqual(['healed']));
    // One way: r1 hears A, A does not hear r1.
    network.partition([['r1'], ['A']], true);
    socket.write(command('ECHO', 'one-way'));
    await poll(() => expect(drops).toHaveLength(2));
    expect(redis.got.map((g) => g.text)).toEqual(['healed', 'one-way']);
    expect(drops[1]).toMatchObject({ reason: 'partition', reply: true, seq: 3 });
    expect(received.map((r) => r.text)).toEqual(['healed']);
  });

  it('carries a message its sender sent before it went away, and counts it in flight until then', async () => {
    const { redis, socket, flying } = await link([{ from: 'A', to: 'r1', faults: { latency: fixed(300) } }]);
    socket.end(command('ECHO', 'last words'));
    await poll(() => expect(flying.count).toBeGreaterThan(0));
    // The harness's run is not over while something is in flight (its sender is gone already).
    expect(redis.got).toEqual([]);
    await poll(() => expect(redis.got.map((g) => g.text)).toEqual(['last words']));
    await poll(() => expect(flying.count).toBe(0));
  });

  it('keeps the order messages were sent in, whatever delay each draws', async () => {
    const { redis, socket, received } = await link([
      { from: 'A', to: 'r1', faults: { latency: { dist: 'uniform', minMs: 0, maxMs: 40 } } },
    ]);
    const texts = Array.from({ length: 30 }, (_, i) => `m${i}`);
    for (const text of texts) {
      socket.write(command('ECHO', text));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await poll(() => expect(received).toHaveLength(30));
    expect(redis.got.map((g) => g.text)).toEqual(texts);
    expect(received.map((r) => r.text)).toEqual(texts);
  });
});
