import { beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../scenario/diagnostic';
import { parseScenario } from '../../scenario/text/parse';
import { loadTestScripts, runYaml } from '../../testing/testKit';

beforeAll(loadTestScripts);

/** Two baristas on one lock service; `extra` adds the service section, script and resource. */
const twoBaristas = (recipe: string, extra: string, b = 'startAt: 11s') => `
id: svc
title: t
seed: 5
clients:
  - { id: A, recipe: ${recipe}, ttl: 10s, work: 2s }
  - { id: B, recipe: ${recipe}, ttl: 10s, work: 2s, ${b} }
${extra}
`;

describe('etcd-style lease service', () => {
  const paused = (fencing: boolean) =>
    twoBaristas(
      'lease-service',
      `leaseService: { id: etcd }\nresource: { id: espresso, fencing: ${fencing} }\nscript: [{ at: 1s, do: pause, target: A, for: 15s }]`,
    );

  it('hands out rising revisions as fencing tokens, so a fenced store refuses the paused holder', () => {
    const r = runYaml(paused(true));
    expect(r.of('lease.granted', 'etcd').map((e) => e.data.owner)).toEqual(['A', 'B']);
    expect(r.of('lease.ended', 'etcd').map((e) => [e.data.owner, e.data.reason])).toEqual([
      ['A', 'expired'],
      ['B', 'deleted'],
    ]);
    const tokens = r.of('lock.acquired').map((e) => e.data.token!);
    expect(tokens[1]!).toBeGreaterThan(tokens[0]!);
    expect(r.of('resource.write').map((e) => [e.data.from, e.data.accepted])).toEqual([
      ['B', true],
      ['A', false],
    ]);
    expect(r.verdict('single-writer').holds).toBe(true);
    expect(r.verdict('single-lease').holds).toBe(true);
  });

  it('has a lane of its own kind, a lock service, and no idle Redis lane beside it', () => {
    const r = runYaml(paused(true));
    const start = r.of('run.start')[0]!;
    expect(start.data.actors.find((a) => a.id === 'etcd')).toEqual({ id: 'etcd', label: 'etcd', role: 'service' });
    // The default Redis node nobody talks to gets no lane.
    expect(start.data.actors.map((a) => a.id)).toEqual(['A', 'B', 'etcd', 'espresso']);
  });

  it('cannot save an unfenced store: the lease expires while the holder is paused', () => {
    const r = runYaml(paused(false));
    expect(r.verdict('single-writer').holds).toBe(false);
    expect(r.verdict('single-holder').holds).toBe(false);
    // The service itself never granted the lock twice at once.
    expect(r.verdict('single-lease').holds).toBe(true);
  });

  it('keeps leases on a monotonic clock: a wall-clock jump on the service does not free the lock', () => {
    const r = runYaml(
      twoBaristas(
        'lease-service',
        'leaseService: { id: etcd }\nresource: { id: espresso }\nscript: [{ at: 500ms, do: clock-jump, target: etcd, by: 30s }]',
        'startAt: 1s',
      ),
    );
    expect(r.of('lease.ended', 'etcd')[0]!.data).toMatchObject({ owner: 'A', reason: 'deleted' });
    expect(r.verdict('single-writer').holds).toBe(true);
  });

  it('survives a restart with its locks (durable), where Redis without persistence forgets', () => {
    const script = (target: string) =>
      `script: [{ at: 500ms, do: crash, target: ${target} }, { at: 1s, do: restart, target: ${target} }]`;
    const etcd = runYaml(
      twoBaristas(
        'lease-service',
        `leaseService: { id: etcd }\nresource: { id: espresso }\n${script('etcd')}`,
        'startAt: 1500ms',
      ),
    );
    expect(etcd.of('lock.busy', 'B').length).toBeGreaterThan(0);
    expect(etcd.verdict('single-writer').holds).toBe(true);
    const redis = runYaml(
      twoBaristas('lease-with-token', `resource: { id: espresso }\n${script('r1')}`, 'startAt: 1500ms'),
    );
    expect(redis.verdict('single-writer').holds).toBe(false);
  });
});

describe('database lock table', () => {
  it('expiry-column: a paused holder loses its row to a takeover; the sequence token lets a fenced row refuse it', () => {
    const yaml = (fencing: boolean) =>
      twoBaristas(
        'db-lock',
        `dbLock: { id: db }\nresource: { id: row, kind: db-row, fencing: ${fencing} }\nscript: [{ at: 1s, do: pause, target: A, for: 15s }]`,
      );
    const open = runYaml(yaml(false));
    expect(open.of('lease.ended', 'db')[0]!.data).toMatchObject({ owner: 'A', reason: 'expired' });
    expect(open.verdict('single-writer').holds).toBe(false);
    const fenced = runYaml(yaml(true));
    expect(fenced.of('lock.acquired').map((e) => e.data.token)).toEqual([1, 2]);
    const [, stale] = fenced.of('resource.write');
    expect(stale!.data).toMatchObject({ from: 'A', accepted: false });
    expect(fenced.verdict('single-writer').holds).toBe(true);
  });

  it("expiry-column: expiry follows the database's clock, so a jump forward hands the lock over early", () => {
    const r = runYaml(
      twoBaristas(
        'db-lock',
        'dbLock: { id: db }\nresource: { id: row, kind: db-row }\nscript: [{ at: 1s, do: clock-jump, target: db, by: 20s }]',
        'startAt: 1500ms',
      ),
    );
    expect(r.of('lease.ended', 'db')[0]!.data).toMatchObject({ owner: 'A', reason: 'expired' });
    expect(r.of('lock.acquired', 'B')[0]!.at).toBeLessThan(2100);
    expect(r.verdict('single-writer').holds).toBe(false);
  });

  it('for-update: waiters queue inside the database (no retries) and the paused holder stalls everyone', () => {
    const r = runYaml(
      `${twoBaristas('db-lock', 'dbLock: { id: db, mode: for-update }\nresource: { id: row, kind: db-row }\nscript: [{ at: 1s, do: pause, target: A, for: 15s }]', 'startAt: 1500ms')}\nchecks: { progressWithin: 10s }`,
    );
    expect(r.of('lock.busy', 'B')).toHaveLength(0);
    expect(r.of('lock.acquired').map((e) => e.actor)).toEqual(['A', 'B']);
    expect(r.of('lock.acquired', 'B')[0]!.at).toBeGreaterThan(16_000);
    expect(r.verdict('single-writer').holds).toBe(true);
    expect(r.verdict('progress').holds).toBe(false);
  });

  it("for-update: an idle-session timeout frees the lock and rolls the stalled holder's write back", () => {
    const r = runYaml(
      twoBaristas(
        'db-lock',
        'dbLock: { id: db, mode: for-update, idleTimeout: 5s }\nresource: { id: row, kind: db-row }\nscript: [{ at: 1s, do: pause, target: A, for: 15s }]',
        'startAt: 1500ms',
      ),
    );
    expect(r.of('lease.ended', 'db')[0]!.data).toMatchObject({ owner: 'A', reason: 'lost' });
    const writes = r.of('resource.write').map((e) => [e.data.from, e.data.accepted]);
    expect(writes).toEqual([
      ['B', true],
      ['A', false],
    ]);
    expect(r.of('resource.write', 'row')[1]!.data.reason).toMatch(/no open transaction/);
    expect(r.verdict('single-writer').holds).toBe(true);
  });

  it('for-update: a crashed holder frees the row at once (its connection closes), unlike a lease that waits out its TTL', () => {
    const r = runYaml(
      twoBaristas(
        'db-lock',
        'dbLock: { id: db, mode: for-update }\nresource: { id: row, kind: db-row }\nscript: [{ at: 1s, do: crash, target: A }]',
        'startAt: 1500ms',
      ),
    );
    expect(r.of('lock.acquired', 'B')[0]!.at).toBeLessThan(1600);
    expect(r.of('resource.write').map((e) => [e.data.from, e.data.accepted])).toEqual([['B', true]]);
  });
});

describe('service diagnostics', () => {
  const problems = (yaml: string) => {
    const parsed = parseScenario(yaml, { file: 'x.yaml', line: 1 });
    return parsed.ok ? [] : parsed.diagnostics.map(formatDiagnostic);
  };

  it('asks for the service a recipe needs, and rejects a setting of the other mode', () => {
    expect(
      problems('id: d\ntitle: d\nclients: [{ id: A, recipe: lease-service, ttl: 1s }]\nresource: { id: e }\n'),
    ).toEqual([
      "x.yaml:3:28: recipe 'lease-service' needs a lease service (add leaseService: { id: etcd } to the scenario)",
    ]);
    expect(
      problems(
        'id: d\ntitle: d\nclients: [{ id: A, recipe: db-lock, ttl: 1s }]\ndbLock: { id: db, idleTimeout: 5s }\nresource: { id: e }\n',
      )[0],
    ).toMatch(/^x\.yaml:4:\d+: idleTimeout applies to a row lock/);
  });
});
