import { connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAULTS } from '../net/faults';
import { RealNetwork } from './realNetwork';
import { ServerNetwork } from './serverNetwork';

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stand-in server: it keeps what it receives, and hands out its accepted sockets to write on. */
async function server() {
  const received: string[] = [];
  const accepted: Socket[] = [];
  const s = createServer((socket) => {
    accepted.push(socket);
    socket.on('data', (chunk: Buffer) => received.push(chunk.toString()));
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  closers.push(() => (accepted.forEach((a) => a.destroy()), s.close()));
  return { port: (s.address() as { port: number }).port, received, accepted };
}

/** Servers `primary`, `replica` and `s1` on one network; `primary`'s front in front of a stand-in. */
async function setup(lagMs = 0) {
  const network = new RealNetwork(7, { defaults: DEFAULT_FAULTS, links: [] });
  const servers = new ServerNetwork(['primary', 'replica', 's1'], network, (primary, replica) =>
    primary === 'primary' && replica === 'replica' ? lagMs : 0,
  );
  closers.push(() => servers.close());
  const target = await server();
  const front = await servers.front('primary');
  front.target(target.port);
  /** A connection to the primary's front from `from`'s address (null: from 127.0.0.1, outside the scenario). */
  const dial = async (from: string | null) => {
    const before = target.accepted.length;
    const socket = connect({
      port: front.port,
      host: '127.0.0.1',
      ...(from ? { localAddress: servers.address(from) } : {}),
    });
    const got: string[] = [];
    socket.on('data', (chunk: Buffer) => got.push(chunk.toString()));
    socket.on('error', () => undefined);
    closers.push(() => socket.destroy());
    await new Promise((resolve) => socket.once('connect', resolve));
    while (target.accepted.length === before) await sleep(5);
    return { socket, got, far: target.accepted[before]! };
  };
  return { network, servers, target, dial };
}

describe('the servers network: fronts that know their callers', () => {
  it('gives each server an address of its own on loopback', async () => {
    const { servers } = await setup();
    expect(['primary', 'replica', 's1'].map((id) => servers.address(id))).toEqual([
      '127.0.0.11',
      '127.0.0.12',
      '127.0.0.13',
    ]);
  });

  it('holds what a partition cuts, both ways, and passes it on in order at the heal', async () => {
    const { network, target, dial } = await setup();
    const { socket, got, far } = await dial('s1');
    socket.write('PING 1|');
    await sleep(50);
    expect(target.received.join('')).toBe('PING 1|');
    network.partition([['primary'], ['s1']], false);
    socket.write('PING 2|');
    socket.write('PING 3|');
    far.write('+PONG 2|');
    await sleep(100);
    expect(target.received.join('')).toBe('PING 1|');
    expect(got).toEqual([]);
    network.heal();
    await sleep(50);
    expect(target.received.join('')).toBe('PING 1|PING 2|PING 3|');
    expect(got.join('')).toBe('+PONG 2|');
  });

  it('passes a connection from outside the scenario (the harness, a client proxy) through a partition', async () => {
    const { network, target, dial } = await setup();
    network.partition([['primary'], ['replica', 's1']], false);
    const { socket } = await dial(null);
    socket.write('INFO|');
    await sleep(50);
    expect(target.received.join('')).toBe('INFO|');
  });

  it('cuts only the way a one-way partition says', async () => {
    const { network, target, dial } = await setup();
    const { socket, got, far } = await dial('s1');
    network.partition([['s1'], ['primary']], true);
    socket.write('PING|');
    far.write('+hello|');
    await sleep(80);
    expect(target.received).toEqual([]);
    expect(got.join('')).toBe('+hello|');
  });

  it("delays what a primary sends its replica by the replica's lag, and loses what it still held when the primary died", async () => {
    const { dial } = await setup(300);
    const replica = await dial('replica');
    const sentinel = await dial('s1');
    const sent = performance.now();
    replica.far.write('+write 1|');
    sentinel.far.write('+not lagged|');
    await sleep(100);
    expect(sentinel.got.join('')).toBe('+not lagged|');
    expect(replica.got).toEqual([]);
    while (replica.got.length === 0) await sleep(5);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(295);
    // The primary dies 100 ms after its next write: the replica never gets it, and its line closes.
    const closed = new Promise((resolve) => replica.socket.once('close', resolve));
    replica.far.write('+write 2|');
    await sleep(100);
    replica.far.destroy();
    await closed;
    await sleep(300);
    expect(replica.got.join('')).toBe('+write 1|');
  });
});
