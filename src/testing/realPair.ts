import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './freePort';
import { requireRedisBinaries } from './realRedis';
import { RespClient } from './respClient';

/** A real primary and replica on loopback, with a client connected to each. */
export interface RealPair {
  version: string;
  primary: RespClient;
  replica: RespClient;
  stop(): Promise<void>;
}

function startServer(port: number, extra: string[]): ChildProcess {
  // A replica's full sync writes an RDB file into its working directory: keep it out of the repo.
  const dir = mkdtempSync(join(tmpdir(), 'lockstep-redis-'));
  return spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--enable-debug-command',
      'local',
      '--logfile',
      '',
      '--dir',
      dir,
      ...extra,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

async function connectWhenUp(port: number, child: ChildProcess, deadline: number): Promise<RespClient> {
  for (;;) {
    try {
      const client = await RespClient.connect(port);
      await client.send([['PING']]);
      return client;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`redis-server did not start on port ${port}: ${String(error)}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Starts a primary and a replica of it, and waits until the replica's link is up. */
export async function startRealPair(): Promise<RealPair> {
  const version = requireRedisBinaries();
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const children = [
    startServer(primaryPort, []),
    startServer(replicaPort, ['--replicaof', '127.0.0.1', String(primaryPort)]),
  ];
  const stop = () =>
    Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    ).then(() => undefined);
  try {
    const deadline = Date.now() + 15_000;
    const primary = await connectWhenUp(primaryPort, children[0]!, deadline);
    const replica = await connectWhenUp(replicaPort, children[1]!, deadline);
    for (;;) {
      const [info] = await replica.send([['INFO', 'replication']]);
      if (info?.type === 'bulk' && info.value?.includes('master_link_status:up')) break;
      if (Date.now() > deadline) throw new Error('the replica never finished its initial sync');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return {
      version,
      primary,
      replica,
      stop: async () => {
        primary.close();
        replica.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
