/**
 * The benchmark workload: 20 clients contending for one lock on one Redis node, each taking it
 * again and again. Most attempts find the lock taken, so the run is dominated by the hot path:
 * message delivery, Redis command execution and retry timers.
 */
export const CLIENTS = 20;
export const TTL_MS = 10_000;
export const WORK_MS = 2;
export const RETRY_MS = 5;
export const LATENCY_MS = { min: 1, max: 3 };

/** The same workload as a scenario file, for the real engine. */
export function contentionYaml(horizonMs: number): string {
  const clients = Array.from(
    { length: CLIENTS },
    (_, i) =>
      `  - { id: c${i}, recipe: lease-with-token, ttl: ${TTL_MS}ms, work: ${WORK_MS}ms, jobs: 1000000, retry: { policy: fixed, delay: ${RETRY_MS}ms } }`,
  ).join('\n');
  return `id: contention
title: Twenty clients, one lock
horizon: ${horizonMs}ms
network: { latency: { min: ${LATENCY_MS.min}ms, max: ${LATENCY_MS.max}ms } }
clients:
${clients}
resource: { id: store }
`;
}

/**
 * The two halves of that workload, for telling where the time goes: one client holds the lock
 * for good while nineteen keep retrying (messages, commands and retry timers only), and one
 * client alone taking and releasing the lock job after job (every machine transition, write
 * and release script of a job, no contention).
 */
export function retryOnlyYaml(horizonMs: number): string {
  const clients = Array.from({ length: CLIENTS }, (_, i) =>
    i === 0
      ? `  - { id: c0, recipe: lease-with-token, ttl: 1000s, work: forever }`
      : `  - { id: c${i}, recipe: lease-with-token, ttl: ${TTL_MS}ms, work: ${WORK_MS}ms, startAt: 1ms, retry: { policy: fixed, delay: ${RETRY_MS}ms } }`,
  ).join('\n');
  return `id: retry-only
title: Nineteen clients waiting for a lock that is never released
horizon: ${horizonMs}ms
network: { latency: { min: ${LATENCY_MS.min}ms, max: ${LATENCY_MS.max}ms } }
clients:
${clients}
resource: { id: store }
`;
}

export function jobsOnlyYaml(horizonMs: number): string {
  return `id: jobs-only
title: One client, job after job
horizon: ${horizonMs}ms
network: { latency: { min: ${LATENCY_MS.min}ms, max: ${LATENCY_MS.max}ms } }
clients:
  - { id: c0, recipe: lease-with-token, ttl: ${TTL_MS}ms, work: ${WORK_MS}ms, jobs: 1000000, retry: { policy: fixed, delay: ${RETRY_MS}ms } }
resource: { id: store }
`;
}
