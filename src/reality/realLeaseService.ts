import { Agent, request } from 'node:http';
import { serviceCommand, type ClientConfig, type Report } from './protocol';
import type { RealRecipe } from './realRecipe';

/** An etcd v3 JSON answer: numbers come as strings; a failed transaction has no `succeeded`. */
interface EtcdAnswer {
  header?: { revision?: string };
  succeeded?: boolean;
  ID?: string;
  TTL?: string;
  result?: { TTL?: string };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * The `lease-service` recipe on a real etcd (etcd.ts starts it), through etcd's JSON gateway, as
 * etcd's own lock recipe goes: grant a lease of the TTL, then create the key under it only if it
 * does not exist (`txn: if create_revision(key) == 0 then put`). The put's revision is the
 * fencing token, as the simulator's LeaseService gives it. A keepalive renews the lease; a
 * release deletes the key only if it still holds this client's value, and leaves the emptied
 * lease to run out (so the lease watcher can tell a release from an expiry: etcd.ts). Each call
 * is reported as the simulator's `service.command`, with its words (LOCK, KEEPALIVE, UNLOCK).
 */
export function leaseServiceRecipe(config: ClientConfig, report: (r: Report) => void): RealRecipe {
  const service = config.leaseService;
  if (!service) throw new Error(`client ${config.id} has no lease service to talk to`);
  const { value } = config;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const leases = new Map<string, string>();
  const ttlSeconds = String(config.ttlRealMs / 1000);

  /** One call; null when it got no answer within the client's timeout (or the service is gone). */
  const call = (path: string, body: object): Promise<EtcdAnswer | null> =>
    new Promise((resolve) => {
      const req = request(`${service.url}v3/${path}`, { method: 'POST', agent }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(res.statusCode === 200 ? (JSON.parse(text) as EtcdAnswer) : null));
      });
      if (config.timeoutRealMs !== null) req.setTimeout(config.timeoutRealMs, () => req.destroy());
      req.on('error', () => resolve(null));
      req.end(JSON.stringify(body));
    });
  const told = (argv: string[], answer: number | null) => report(serviceCommand(service.id, config.id, argv, answer));

  return {
    reentrant: false,
    async acquire(key) {
      const lease = await call('lease/grant', { TTL: ttlSeconds });
      if (lease?.ID === undefined) return { ok: false, reason: 'timeout' };
      const put = await call('kv/txn', {
        compare: [{ key: b64(key), target: 'CREATE', createRevision: '0' }],
        success: [{ requestPut: { key: b64(key), value: b64(value), lease: lease.ID } }],
      });
      const argv = ['LOCK', key, value, String(config.ttlScenarioMs)];
      if (put === null) return { ok: false, reason: 'timeout' };
      if (put.succeeded !== true) {
        told(argv, null);
        void call('lease/revoke', { ID: lease.ID });
        return { ok: false, reason: 'busy' };
      }
      const revision = Number(put.header?.revision);
      told(argv, revision);
      leases.set(key, lease.ID);
      return { ok: true, token: config.fencing ? revision : null };
    },
    async release(key) {
      const deleted = await call('kv/txn', {
        compare: [{ key: b64(key), target: 'VALUE', value: b64(value) }],
        success: [{ requestDeleteRange: { key: b64(key) } }],
      });
      const answer = deleted?.succeeded === true ? 1 : 0;
      told(['UNLOCK', key, value], answer);
      return answer === 1;
    },
    async renew(key) {
      const kept = await call('lease/keepalive', { ID: leases.get(key) ?? '0' });
      if (kept === null) return 'unknown';
      const answer = Number(kept.result?.TTL ?? 0) > 0 ? 1 : 0;
      told(['KEEPALIVE', key, value, String(config.ttlScenarioMs)], answer);
      return answer === 1 ? 'renewed' : 'lost';
    },
  };
}
