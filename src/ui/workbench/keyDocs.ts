/**
 * One-line docs for the scenario's keys and values, shown by completion and hover. The generated
 * JSON Schema carries the shapes but (bar one) no descriptions: these lines follow the doc
 * comments of src/scenario/schema/schema.ts, clientSchema.ts, networkSchema.ts and stepSchema.ts. A key is looked up by its parent and name
 * first (`resource.kind`), then by name alone.
 */
const KEY_DOCS: Record<string, string> = {
  id: 'A short name other parts of the scenario refer to (letters, digits, - and _).',
  title: 'The name learners see above the player.',
  seed: 'Seeds the simulation’s random numbers: the same seed gives the same run, event for event.',
  horizon: 'Virtual-time cap: the run stops here even if actors are still busy (default 60s).',
  redis: 'The Redis servers: nodes, sentinels, WAIT, cache load, cluster mode.',
  'redis.nodes': 'The Redis servers, each with an id (default: one node, r1).',
  network:
    'Whole-network faults (latency, loss, duplicate, reorder), per-link overrides and partitions from the start.',
  clients: 'The processes that take the lock: each follows a recipe, or its own steps.',
  label: 'The name shown on the timeline.',
  recipe: 'The lock recipe this client follows (required unless the client has steps).',
  steps: 'An explicit step list instead of a recipe: redis, wait, read and write steps, run in order.',
  key: 'The lock key (default: lock).',
  keys: 'Several lock keys, taken in this order (or sorted, with ordered: true).',
  ordered: 'Take several keys in sorted order, which avoids deadlock.',
  ttl: 'The lease length requested from Redis (a step client’s {ttl}, default 10s there).',
  work: 'How long the critical section takes before it writes to the resource; forever never ends.',
  startAt: 'When the client starts trying to take the lock.',
  node: 'Which Redis node to talk to (default: the first).',
  nodes: 'Redlock’s masters (default: every node).',
  retry:
    'What to do when the lock is taken: none, fixed or exponential, or settings (delay, maxDelay, jitter, attempts).',
  timeout: 'How long to wait for each Redis answer before giving up on it (default: forever).',
  renew: 'Turn on the watchdog: renew the lease every ttl/3.',
  renewEvery: 'Watchdog period (turns the watchdog on).',
  maxHold: 'A cap on the watchdog: after holding the lock this long, stop renewing and give up the job.',
  onRenewFail: 'On an unanswered renewal: stop at once, or retry until the lease would have run out.',
  reenter: 'Take the same lock again this many times while holding it (a nested call).',
  jobs: 'How many times the client takes the lock and does its job.',
  gap: 'Think time between the two commands of get-then-set / setnx-then-expire.',
  tokens: 'Ask for fencing tokens even when the resource does not check them.',
  onUnavailable: 'When retries give up: refuse to work, or proceed without the lock.',
  driftPpm: 'How fast this client’s clock runs, in parts per million: 10000 is 1% fast.',
  'steps.redis': 'A Redis command, word by word; {value}, {token}, {key}, {ttl} and {id} are filled in.',
  'steps.node': 'Which Redis node to send this command to (default: the client’s node).',
  as: 'What the command means to the client: acquire, release, renew, fence (its number is the token writes carry) or command (default: inferred).',
  ifBusy: 'When an acquiring command finds the lock taken: retry by the retry policy, skip ahead, or stop.',
  wait: 'Do nothing for this long (on the client’s own clock).',
  read: 'Read the protected resource (its id).',
  write: 'Write to the protected resource (its id); carries the last fencing token, if any.',
  resource: 'What the lock protects: a store, a DB row, inventory, a payment provider or a dispatch service.',
  'resource.kind': 'What the resource is (default: store).',
  fencing: 'Reject writes whose fencing token is lower than one already seen (store, db-row).',
  fenceCompare:
    'lenient accepts a token equal to the highest seen (a holder may write again); strict accepts each token once.',
  stock: 'inventory: the starting stock.',
  order: 'payment, dispatch: the order at stake.',
  idempotencyKeys: 'payment: the provider honours idempotency keys.',
  conditional: 'dispatch: assign only if the order is still NEW.',
  script: 'Things done to processes or the network at given moments: pause, crash, partition, failover…',
  at: 'When this happens, in virtual time (e.g. 2s).',
  do: 'What happens: pause, resume, crash, restart, clock-jump, partition, heal, network, command, failover…',
  target: 'The actor it happens to (a client, Redis node or resource id).',
  for: 'How long the pause lasts (default: until resumed).',
  by: 'How far the clock jumps (negative jumps back).',
  groups: 'The sides of the partition, each a list of actor ids.',
  oneWay: 'Only messages from the first group to the others are cut.',
  argv: 'A redis-cli command, word by word.',
  controls: 'The buttons the learner gets in the player.',
  checks: 'Checker settings: progressWithin is how long nobody may wait without progress.',
  expect: 'What the quiet run must show: lessons:check fails when it does not come true.',
  invariant: 'Which invariant (or all).',
  outcome: 'holds or violated.',
  latency: 'One-way delay: 5ms, { min, max } (uniform) or { dist: long-tail, min, median, max }.',
  loss: 'Probability (0 to 1) a message is lost.',
  duplicate: 'Probability (0 to 1) a message arrives twice.',
  reorder: 'Probability (0 to 1) a message is held back so later ones overtake it.',
  leaseService: 'An etcd-style lease service (clients with recipe: lease-service).',
  dbLock: 'A database lock table (clients with recipe: db-lock).',
};

const VALUE_DOCS: Record<string, string> = {
  'get-then-set': 'GET the key, then SET it if empty: two clients can both see it empty.',
  'setnx-then-expire': 'SETNX then EXPIRE: a crash between the two leaves a lock that never expires.',
  'lease-plain-del': 'SET NX PX, then a plain DEL: may delete a lock someone else now holds.',
  'lease-with-token': 'SET NX PX with a random value; release only if the value is still ours (Lua).',
  watchdog: 'A lease renewed in the background while the job runs.',
  reentrant: 'A lock the holder can take again (a counter in a hash).',
  redlock: 'Redlock: a majority of independent masters.',
  'lease-service': 'An etcd-style lease with revisions as fencing tokens.',
  'db-lock': 'A row lock in a database.',
  pause: 'Freeze the target (a GC pause, a stopped VM): its timers stop, its lease does not.',
  resume: 'Un-pause the target.',
  crash: 'Kill the target: it loses its in-memory state.',
  restart: 'Start a crashed target again.',
  'clock-jump': 'Jump the target’s clock by `by`.',
  partition: 'Cut the network between groups of actors.',
  heal: 'End every partition.',
  command: 'Run a redis-cli command on a Redis node.',
};

/** The doc line for key `key` of the mapping at `parentPath`, if there is one. */
export function keyDoc(parentPath: readonly (string | number)[], key: string): string | undefined {
  const parent = [...parentPath].reverse().find((p): p is string => typeof p === 'string');
  return (parent !== undefined ? KEY_DOCS[`${parent}.${key}`] : undefined) ?? KEY_DOCS[key];
}

/** The doc line for a fixed value (a recipe, a `do` kind), if there is one. */
export function valueDoc(value: string): string | undefined {
  return VALUE_DOCS[value];
}
