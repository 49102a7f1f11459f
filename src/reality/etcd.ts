import type { ChildProcess } from 'node:child_process';
import { request, type ClientRequest } from 'node:http';
import type { Children } from './children';
import type { LeaseChange } from './leaseWatcher';
import { onFreePort } from './redisServer';

/**
 * Debian's etcd for a scenario's lease service: one member, its data in a temporary directory.
 * Its election timeout is cut to 100 ms so the shortest lease it grants is one second (etcd
 * grants at least 1.5 election timeouts, rounded up to whole seconds; support.ts refuses a TTL
 * that is no whole number of seconds at the run's scale). Started again after a crash, it finds
 * its data where it left it, on the same ports.
 */
function launchEtcd(children: Children, dir: string, port: number, peerPort: number): Promise<ChildProcess> {
  const url = `http://127.0.0.1:${port}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const child = children.start(
    'etcd',
    [
      ...['--data-dir', `${dir}/data`, '--listen-client-urls', url, '--advertise-client-urls', url],
      ...['--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer, '--initial-cluster', `default=${peer}`],
      ...['--heartbeat-interval', '10', '--election-timeout', '100', '--log-level', 'error'],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let said = '';
  child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) =>
      reject(
        new Error(
          `etcd could not start (${error.message}): install Debian's etcd-server (.ci/ensureSystemDeps.sh does)`,
        ),
      ),
    );
    child.once('exit', (code) => reject(new Error(`etcd exited with ${code} before it was ready:\n${said}`)));
  });
  return Promise.race([exited, untilServing(port, child).then(() => child)]);
}

/**
 * The scenario's lease service as a real etcd whose lock keys are watched from the start: its
 * address for the clients, its leases for the trace, its process for the script's faults.
 */
export class RealLeaseService {
  private constructor(
    readonly id: string,
    readonly process: ChildProcess,
    private readonly relaunch: () => Promise<ChildProcess>,
    readonly port: number,
    readonly leases: EtcdLeases,
  ) {}

  /** Starts the scenario's lease service, if it has one; `emit` gets each change with its id. */
  static async start(
    children: Children,
    service: { id: string } | undefined,
    keys: ReadonlySet<string>,
    emit: (server: string, change: LeaseChange, atMs: number) => void,
  ): Promise<RealLeaseService | undefined> {
    if (service === undefined) return undefined;
    const dir = children.tempDir('lockstep-etcd-');
    const { port: peerPort } = await onFreePort(async (p) => p);
    const { port, started } = await onFreePort((p) => launchEtcd(children, dir, p, peerPort));
    const leases = new EtcdLeases(port, (change, at) => emit(service.id, change, at));
    await leases.start(keys);
    const relaunch = () => launchEtcd(children, dir, port, peerPort);
    return new RealLeaseService(service.id, started, relaunch, port, leases);
  }

  get wiring(): { id: string; url: string } {
    return { id: this.id, url: `http://127.0.0.1:${this.port}/` };
  }

  /** After a crash: etcd again on its data and ports, and the watches picked up where they broke. */
  async restart(): Promise<RealLeaseService> {
    const process = await this.relaunch();
    await this.leases.resume();
    return new RealLeaseService(this.id, process, this.relaunch, this.port, this.leases);
  }
}

/** Resolves once etcd answers a status request (a member elects itself within a few hundred ms), or once it exits. */
async function untilServing(port: number, etcd: ChildProcess): Promise<void> {
  // An etcd that exited is reported by launchEtcd; asking on would keep this process alive.
  while (etcd.exitCode === null && etcd.signalCode === null) {
    const answer = await post(port, 'maintenance/status', {}).catch(() => null);
    if (answer?.leader !== undefined && answer.leader !== '0') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What the harness reads of etcd's JSON answers (numbers come as strings). */
interface EtcdReply {
  header?: { revision?: string };
  /** maintenance/status: the leader's member id, "0" or absent while there is none. */
  leader?: string;
  /** kv/lease/timetolive: seconds left, "-1" for a lease that no longer exists. */
  TTL?: string;
}

function post(port: number, path: string, body: object): Promise<EtcdReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: `/v3/${path}`, method: 'POST' }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(JSON.parse(text) as EtcdReply));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

interface WatchedKv {
  key: string;
  value?: string;
  lease?: string;
}

/**
 * Watches the lock keys on etcd (its watch API, one stream per key), so the lease lane shows what
 * etcd did. A key put is a lease granted to the owner its value names (`A-1f2e3d4c`); a key gone
 * is a lease ended, by a release when its lease still lives (the client's transaction deleted
 * it) and by expiry when etcd revoked the lease (the lease's keys go with it). Changes are
 * handled in the order etcd sent them, each timed when it arrived (on this process's clock).
 */
export class EtcdLeases {
  private streams: ClientRequest[] = [];
  private keys: readonly string[] = [];
  /** The store's revision in the last answer heard: a watch resumed after a crash starts past it. */
  private revision = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly port: number,
    private readonly emit: (change: LeaseChange, atMs: number) => void,
  ) {}

  /** Resolves once every key's watch is in place. */
  async start(keys: ReadonlySet<string>): Promise<void> {
    this.keys = [...keys];
    await Promise.all(this.keys.map((key) => this.watch(key)));
  }

  /** etcd came back: watch again from the first change not heard yet (its streams broke with it). */
  async resume(): Promise<void> {
    this.stop();
    this.streams = [];
    await Promise.all(this.keys.map((key) => this.watch(key, this.revision + 1)));
  }

  /** Waits for every change heard so far to be handled. */
  /**
   * Waits for every change made so far to be heard and handled. etcd sends a watch event after
   * the change has committed, so a client can hear its own release answered first: this waits
   * (a second at most) until the streams have reached the store's revision as it is now.
   */
  async settled(): Promise<void> {
    const now = await post(this.port, 'kv/range', { key: Buffer.from('\0').toString('base64') }).catch(() => null);
    const revision = Number(now?.header?.revision ?? 0);
    for (let waited = 0; this.revision < revision && waited < 1000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await this.queue;
  }

  stop(): void {
    for (const stream of this.streams) stream.destroy();
  }

  private watch(key: string, fromRevision?: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: this.port, path: '/v3/watch', method: 'POST' }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          for (let end; (end = text.indexOf('\n')) >= 0; text = text.slice(end + 1)) this.heard(text.slice(0, end));
        });
        res.on('error', () => undefined);
        resolve();
      });
      req.on('error', reject);
      const from = fromRevision === undefined ? {} : { start_revision: String(fromRevision) };
      req.end(JSON.stringify({ create_request: { key: Buffer.from(key).toString('base64'), prev_kv: true, ...from } }));
      this.streams.push(req);
    });
  }

  private heard(line: string): void {
    const at = performance.now();
    const { result } = JSON.parse(line) as {
      result?: { header?: { revision?: string }; events?: { type?: string; kv: WatchedKv; prev_kv?: WatchedKv }[] };
    };
    this.revision = Math.max(this.revision, Number(result?.header?.revision ?? 0));
    for (const event of result?.events ?? []) {
      const key = Buffer.from(event.kv.key, 'base64').toString();
      const ownerOf = (kv: WatchedKv | undefined) =>
        Buffer.from(kv?.value ?? '', 'base64')
          .toString()
          .split('-', 1)[0] || 'someone';
      this.queue = this.queue.then(async () => {
        if (event.type !== 'DELETE') {
          const value = Buffer.from(event.kv.value ?? '', 'base64').toString();
          this.emit({ kind: 'lease.granted', key, owner: ownerOf(event.kv), value }, at);
          return;
        }
        const lease = event.prev_kv?.lease;
        const left =
          lease === undefined ? null : await post(this.port, 'kv/lease/timetolive', { ID: lease }).catch(() => null);
        // A lease etcd revoked reads as TTL -1; a live one with under a second left, as no TTL.
        const reason = left === null || left.TTL === '-1' ? 'expired' : 'deleted';
        this.emit({ kind: 'lease.ended', key, owner: ownerOf(event.prev_kv), reason }, at);
      });
    }
  }
}
