import type { LinkFaults } from '../net/faults';
import { Network, type NetworkOptions } from '../net/network';
import type { ScriptEngine } from '../redis/scriptEngine';
import { assert } from '../sim/assert';
import type { Sim } from '../sim/sim';
import type { ActorInfo } from '../sim/traceEvents';
import type { UntimedAction } from './action';
import { FINAL_CLIENT_STATES, type ClientActor } from './client/clientActor';
import type { ClientSpec } from './client/clientSpec';
import { LockClient } from './client/lockClient';
import { lockPatternOf } from './client/lockPattern';
import type { Process } from './process/process';
import { makeRecipe, SERVICE_RECIPES } from './recipes/catalog';
import type { Recipe, RecipeContext } from './recipes/recipe';
import { serviceRecipe } from './recipes/serviceRecipe';
import { DbLockTable, type DbLockMode } from './services/dbLockTable';
import { LeaseService } from './services/leaseService';
import { ServiceRpc } from './services/serviceRpc';
import { TransactionalResource } from './services/transactionalResource';
import { RedisServerNode } from './server/redisNode';
import { ReplicationTopology, type TopologySpec } from './server/replicationTopology';
import { buildResource, type ResourceSpec } from './resources/buildResource';
import type { Resource } from './resources/resource';
import { jitterStream } from './client/retryPolicy';
import { StepClient } from './client/stepClient';

/** Lock services other than Redis that clients may take the lock from. */
export interface ServicesSpec {
  /** An etcd-style lease service (recipe lease-service). */
  lease?: { id: string; label: string };
  /** A database lock table (recipe db-lock). */
  db?: { id: string; label: string; mode: DbLockMode; idleTimeoutMs: number | null };
}

/** Everything needed to build a world. */
export interface WorldSpec {
  /** Lock services besides Redis (absent: none). */
  services?: ServicesSpec;
  network: NetworkOptions;
  redisNodes: { id: string; label: string }[];
  clients: ClientSpec[];
  resource: ResourceSpec;
  /** Replication, persistence, Sentinel and client WAIT (absent: independent lone nodes). */
  topology?: TopologySpec;
}

/** The lanes of the timeline, in display order: clients, then Redis, then the resource. */
export function actorInfos(spec: WorldSpec): ActorInfo[] {
  return [
    ...spec.clients.map((c): ActorInfo => ({ id: c.id, label: c.label, role: 'client', ...lockPatternOf(c) })),
    ...(redisIdle(spec) ? [] : spec.redisNodes.map((n): ActorInfo => ({ id: n.id, label: n.label, role: 'redis' }))),
    // A lock service is a lock server: its lane shows leases the way a Redis lane does.
    ...[spec.services?.lease, spec.services?.db].flatMap((s) =>
      s ? [{ id: s.id, label: s.label, role: 'service' as const }] : [],
    ),
    ...(spec.topology?.sentinels?.ids ?? []).map((id): ActorInfo => ({
      id,
      label: `Sentinel ${id}`,
      role: 'sentinel',
    })),
    { id: spec.resource.id, label: spec.resource.label, role: 'resource' },
  ];
}

/**
 * A scenario whose clients all take their lock from a lock service still has the default lone
 * Redis node; nobody talks to it, so it gets no lane (it would only ever say "no lock held").
 */
function redisIdle(spec: WorldSpec): boolean {
  return (
    spec.services !== undefined &&
    spec.redisNodes.length === 1 &&
    spec.clients.every((c) => SERVICE_RECIPES.includes(c.recipe))
  );
}

/**
 * The simulated coffee shop: Redis nodes, lock clients and the resource they protect, wired
 * through one network and driven by one kernel.
 */
export class World {
  readonly network: Network;
  readonly nodes: RedisServerNode[];
  /** Replication, Sentinel and persistence wiring (does nothing for lone nodes). */
  readonly topology: ReplicationTopology;
  readonly clients: ClientActor[];
  readonly resource: Resource;
  readonly actors: ActorInfo[];
  /** The etcd-style lease service, when the scenario has one. */
  readonly leaseService: LeaseService | null;
  /** The database lock table, when the scenario has one. */
  readonly dbLock: DbLockTable | null;
  private readonly processes = new Map<string, Process>();

  constructor(
    readonly sim: Sim,
    readonly spec: WorldSpec,
    scripts: ScriptEngine | undefined,
  ) {
    this.network = new Network(sim, spec.network);
    const lockKeys = [...new Set(spec.clients.flatMap((c) => c.keys))];
    const owners = new Map<string, string>();
    const ownerOf = (value: string) => owners.get(value) ?? 'someone';
    this.nodes = spec.redisNodes.map(
      (n) => new RedisServerNode(sim, n.id, lockKeys, ownerOf, scripts, spec.topology?.nodes[n.id]),
    );
    const active = () => this.clients.some((c) => !FINAL_CLIENT_STATES.has(c.state) && !c.process.crashed);
    this.topology = new ReplicationTopology(sim, this.network, this.nodes, spec.topology ?? null, active);
    const services = spec.services ?? {};
    this.leaseService = services.lease ? new LeaseService(sim, services.lease.id, ownerOf) : null;
    this.dbLock = services.db ? new DbLockTable(sim, services.db.id, ownerOf, services.db) : null;
    // Each client's lock value, for a resource that compares them (cas-row).
    const values = new Map<string, string>();
    const resource = buildResource(sim, spec.resource, (client) => values.get(client) ?? client);
    // With a row lock, the protected table's writes join the holder's transaction.
    this.resource =
      this.dbLock?.options.mode === 'for-update' ? new TransactionalResource(sim, resource, this.dbLock) : resource;
    this.actors = actorInfos(spec);
    this.clients = spec.clients.map((c) => {
      // Each client's lock value comes from its own random stream (see Prng.fork).
      const value = `${c.id}-${sim.random.fork(`client:${c.id}`).hex(4)}`;
      owners.set(value, c.id);
      values.set(c.id, value);
      if (c.steps) return this.stepClient(c, value);
      return new LockClient(sim, c, {
        network: this.network,
        nodes: c.nodes.map((id) => this.topology.address(id)),
        resource: this.resource,
        value,
        fencing: (spec.resource.fencing && this.resource.canFence) || c.tokens,
        recipe: (ctx) => this.recipeFor(c, ctx),
        random: jitterStream(sim.random, c.id, c.startAtMs, c.retry),
      });
    });
    for (const owner of [...this.clients, ...this.nodes, this.resource])
      this.processes.set(owner.process.id, owner.process);
    for (const service of [this.leaseService, this.dbLock])
      if (service) this.processes.set(service.id, service.process);
    this.closeConnectionsOnCrash();
    for (const process of this.topology.processes()) this.processes.set(process.id, process);
    for (const node of this.nodes) node.expireWhile(() => active() || (this.topology.group?.busy ?? false));
  }

  /** The recipe's protocol for one client; the service recipes talk to the world's lock services. */
  private recipeFor(c: ClientSpec, ctx: RecipeContext): Recipe {
    const service = c.recipe === 'lease-service' ? this.leaseService : c.recipe === 'db-lock' ? this.dbLock : null;
    if (!service) return makeRecipe(c.recipe, ctx, c.redlock);
    return serviceRecipe(ctx, service, new ServiceRpc(this.sim, this.network, ctx.process, c.timeoutMs));
  }

  /** Lets go of a finished run: its machines no longer hold it (see ClientShell.detachMachines). */
  release(): void {
    for (const client of this.clients) client.detachMachines();
    for (const sentinel of this.topology.group?.sentinels ?? []) sentinel.detachMachines();
  }

  /** A crashed client's database connection closes, and the database rolls its transaction back. */
  private closeConnectionsOnCrash(): void {
    const db = this.dbLock;
    if (!db) return;
    for (const client of this.clients) {
      const process = client.process;
      // After the client's own hook: the reset reaches the database like any message (it is
      // lost if the link is cut).
      process.onCrash(() =>
        this.network.send(process.id, db.process, 'connection reset', () => db.disconnect(process.id)),
      );
    }
  }

  /** A client that follows its scenario's step list on its first node (a step may name another). */
  private stepClient(c: ClientSpec, value: string): StepClient {
    return new StepClient(this.sim, c, {
      network: this.network,
      defaultNode: this.topology.address(c.nodes[0]!),
      nodeById: (id) => (this.nodes.some((n) => n.id === id) ? this.topology.address(id) : undefined),
      resource: this.resource,
      value,
      random: jitterStream(this.sim.random, c.id, c.startAtMs, c.retry),
    });
  }

  process(id: string): Process | undefined {
    return this.processes.get(id);
  }

  /**
   * Applies an action now. Its target exists: the scenario's reader and the player's controls
   * check targets before an action is scheduled, so a missing one is a bug here and stops the run.
   */
  apply(action: UntimedAction): void {
    // Anything that happens may give sleeping background loops (crons, sentinels) work again.
    this.topology.wake();
    switch (action.do) {
      case 'failover':
      case 'power-loss':
        this.topology.apply(action);
        return;
      case 'partition':
        this.network.partition(action.groups, action.oneWay ?? false);
        return;
      case 'heal':
        this.network.heal();
        return;
      case 'network': {
        const { do: _, from, to, ...faults } = action;
        const link = from !== undefined && to !== undefined ? { from, to } : undefined;
        this.network.setFaults(faults as Partial<LinkFaults>, link);
        return;
      }
      default:
        break;
    }
    if (action.do === 'command') {
      const node = this.nodes.find((n) => n.id === action.target);
      assert(node, () => `command: no Redis node '${action.target}'`);
      // A stopped server answers nobody: the console shows that no reply came back.
      if (!node.process.crashed && !node.process.paused) node.execute(action.argv, 'console', -1);
      return;
    }
    const target = this.process(action.target);
    assert(target, () => `${action.do}: no process '${action.target}'`);
    switch (action.do) {
      case 'pause':
        target.pause(action.forMs ?? null);
        break;
      case 'resume':
        target.resume();
        break;
      case 'crash':
        target.crash();
        break;
      case 'restart':
        target.restart();
        break;
      case 'clock-jump':
        target.jumpClock(action.byMs);
        break;
    }
  }
}
