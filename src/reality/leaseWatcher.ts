import Redis from 'ioredis';

/** A change to a lock key as Redis itself reports it. */
export type LeaseChange =
  | { kind: 'lease.granted'; key: string; owner: string; value: string }
  | { kind: 'lease.ended'; key: string; owner: string; reason: 'expired' | 'deleted' | 'overwritten' | 'lost' };

/**
 * Watches the lock keys on a real Redis through keyspace notifications (`set`, `del`,
 * `expired`), so leases in the trace are what Redis did, not what clients believed. A `set`
 * names no value, so the watcher reads it with a GET on a second connection; changes are
 * handled one at a time, in the order Redis announced them, each timed when it was announced.
 * A lock value starts with its owner's id (`A-1f2e3d4c`).
 */
export class LeaseWatcher {
  private readonly subscriber: Redis;
  private readonly reader: Redis;
  private readonly owners = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    port: number,
    private readonly keys: ReadonlySet<string>,
    private readonly now: () => number,
    private readonly emit: (change: LeaseChange, atMs: number) => void,
  ) {
    const options = { port, host: '127.0.0.1', maxRetriesPerRequest: null, retryStrategy: () => 20 };
    this.subscriber = new Redis(options);
    // A read gives up once a reconnection has failed: a node killed between announcing a `set`
    // and answering the GET never answers, and a read waiting for it (retrying for ever) held
    // `settled`, and with it the whole run, until the test's timeout (hog run 17, at load 4).
    this.reader = new Redis({ ...options, maxRetriesPerRequest: 1 });
    for (const r of [this.subscriber, this.reader]) r.on('error', () => undefined);
    this.subscriber.on('pmessage', (_pattern: string, channel: string, key: string) =>
      this.heard(channel.slice(channel.indexOf(':') + 1), key),
    );
  }

  /** Resolves once notifications are flowing. */
  async start(): Promise<void> {
    await this.subscriber.psubscribe('__keyevent@0__:*');
  }

  /** Redis lost its memory (a crash without persistence): every lease it held is gone. */
  lostAll(atMs: number): void {
    this.queue = this.queue.then(() => {
      for (const [key, owner] of this.owners) this.emit({ kind: 'lease.ended', key, owner, reason: 'lost' }, atMs);
      this.owners.clear();
    });
  }

  /** Redis came back with its data (an AOF): each lock key it loaded is a lease again, now. */
  reloaded(atMs: number): Promise<void> {
    return (this.queue = this.queue.then(async () => {
      for (const key of this.keys) {
        const value = await this.reader.get(key).catch(() => null);
        if (value === null) continue;
        const owner = value.split('-', 1)[0] || 'someone';
        this.owners.set(key, owner);
        this.emit({ kind: 'lease.granted', key, owner, value }, atMs);
      }
    }));
  }

  /** Waits for every change heard so far to be handled. */
  settled(): Promise<void> {
    return this.queue;
  }

  stop(): void {
    this.subscriber.disconnect();
    this.reader.disconnect();
  }

  private heard(event: string, key: string): void {
    if (!this.keys.has(key)) return;
    const at = this.now();
    const ended = (reason: 'expired' | 'deleted' | 'overwritten') => {
      const owner = this.owners.get(key);
      if (owner === undefined) return;
      this.owners.delete(key);
      this.emit({ kind: 'lease.ended', key, owner, reason }, at);
    };
    this.queue = this.queue.then(async () => {
      if (event === 'del') return ended('deleted');
      if (event === 'expired') return ended('expired');
      if (event !== 'set') return;
      const read = await this.reader.get(key).catch(() => undefined);
      // The node went down before it answered: it holds nothing now (lostAll ends what it held).
      if (read === undefined) return;
      const value = read ?? '';
      ended('overwritten');
      const owner = value.split('-', 1)[0] || 'someone';
      this.owners.set(key, owner);
      this.emit({ kind: 'lease.granted', key, owner, value }, at);
    });
  }
}
