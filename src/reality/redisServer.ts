import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { Children } from './children';

/**
 * A free loopback port (the OS picks one; it is free again the moment this returns). A
 * connection that lands on the probe meanwhile (a client elsewhere retrying a port that happens
 * to be this one) is cut, or closing the probe would wait for it for ever.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Debian's redis-server on `port`, without persistence unless `extra` turns an AOF on (then a
 * restart loads it; otherwise it comes back empty), with
 * keyspace notifications for the events a lease has: set, del, expired. Resolves once it
 * accepts connections. `env` is its environment (libfaketime's, for a clock the script steps);
 * `extra` are further options (`--replicaof`, `--replica-priority`, …).
 */
export function startRedis(
  children: Children,
  port: number,
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly string[] = [],
): Promise<ChildProcess> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--notify-keyspace-events',
    'Eg$x',
    '--protected-mode',
    'no',
    '--dir',
    '/tmp',
    '--dbfilename',
    `lockstep-reality-${port}.rdb`,
    ...extra,
  ];
  return startServer(children, args, env);
}

/**
 * Starts redis-server with `args` (a Sentinel's: a config file and `--sentinel`) and resolves
 * once it says it accepts connections, or rejects with what it printed if it exits first.
 */
export function startServer(
  children: Children,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChildProcess> {
  const child = children.start('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections') || out.includes('+monitor master')) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.once('error', (error) =>
      reject(
        new Error(
          `redis-server could not start (${error.message}): install Debian's redis-server (.ci/ensureSystemDeps.sh does)`,
        ),
      ),
    );
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code} before it was ready:\n${out}`)));
  });
}

/**
 * Starts a server on a port the OS called free. Another harness running beside this one may
 * have been handed the same port and bound it first; then this server cannot listen, and
 * another port is tried.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<{ port: number; started: T }> {
  for (let tries = 1; ; tries++) {
    const port = await freePort();
    try {
      return { port, started: await start(port) };
    } catch (error) {
      if (tries >= 5 || !/Address already in use/.test((error as Error).message)) throw error;
    }
  }
}
