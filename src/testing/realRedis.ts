import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './freePort';
import { RespClient } from './respClient';

/**
 * Starts Debian's redis-server on 127.0.0.1 on a free port for the differential suite, with
 * no persistence and DEBUG enabled for local clients. Fails loudly when the binary is missing:
 * the suite must never silently pass without the real server.
 */
export interface RealRedis {
  port: number;
  version: string;
  stop(): Promise<void>;
}

/** Throws a clear error when redis-server or redis-cli is not installed. */
export function requireRedisBinaries(): string {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      "redis-server is not installed, so the differential suite cannot run. Install Debian's " +
        'redis-server 7.0.x (apt-get install redis-server) or run .ci/ensureSystemDeps.sh.',
    );
  }
  const cli = spawnSync('redis-cli', ['--version'], { encoding: 'utf8' });
  if (cli.error || cli.status !== 0)
    throw new Error("redis-cli is not installed (it comes with Debian's redis-tools).");
  const version = /v=([0-9.]+)/.exec(probe.stdout)?.[1] ?? 'unknown';
  if (!version.startsWith('7.0.')) {
    throw new Error(
      `The differential suite is pinned to redis-server 7.0.x (doubles print differently in 7.2); found ${version}.`,
    );
  }
  return version;
}

/**
 * Starts a fresh redis-server and waits until it answers PING. `env` replaces its environment
 * (the clock tests preload libfaketime through it: fakeTimeRedis.ts).
 */
export async function startRealRedis(env?: NodeJS.ProcessEnv): Promise<RealRedis> {
  const version = requireRedisBinaries();
  const port = await freePort();
  const child: ChildProcess = spawn(
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
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], ...(env === undefined ? {} : { env }) },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const client = await RespClient.connect(port);
      await client.send([['PING']]);
      client.close();
      break;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`redis-server did not start on port ${port}: ${String(error)}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    port,
    version,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** Runs input through `redis-cli --no-raw -p port` and returns its stdout as a byte string. */
export function runRedisCli(port: number, input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-cli', ['--no-raw', '-p', String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`redis-cli exited with ${code}: ${Buffer.concat(errors).toString()}`));
      else resolve(Buffer.concat(chunks).toString('latin1'));
    });
    child.stdin.end(Buffer.from(input, 'latin1'));
  });
}
