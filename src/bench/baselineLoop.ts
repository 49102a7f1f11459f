import { CLIENTS, LATENCY_MS, RETRY_MS, TTL_MS, WORK_MS } from './contention';

/**
 * The yardstick for the kernel benchmark: the same 20-client contention workload written as
 * plainly as possible. A binary heap of numeric events, a Map as the keyspace, a switch per
 * event, no XState, no trace, no Redis command table. Whatever the real engine costs beyond
 * this is the price of its fidelity and of the trace; the ratio says how big that price is.
 */

const SERVER_GET_ACQUIRE = 0; // SET NX PX arrives at the server
const CLIENT_ACQUIRE_REPLY = 1;
const WORK_DONE = 2;
const SERVER_GET_RELEASE = 3; // check-and-delete arrives at the server
const CLIENT_RELEASE_REPLY = 4;
const RETRY = 5;

/** Runs the workload for `horizonMs` of virtual time; returns how many events it handled. */
export function runBaseline(horizonMs: number, seed = 1): number {
  // Heap of [time, seq, kind, client, flag] packed into parallel arrays.
  const times: number[] = [];
  const seqs: number[] = [];
  const payloads: number[] = [];
  let size = 0;
  let seq = 0;
  const push = (at: number, kind: number, client: number, flag: number) => {
    let i = size++;
    const s = seq++;
    const payload = kind | (client << 3) | (flag << 12);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (times[p]! < at || (times[p] === at && seqs[p]! < s)) break;
      times[i] = times[p]!;
      seqs[i] = seqs[p]!;
      payloads[i] = payloads[p]!;
      i = p;
    }
    times[i] = at;
    seqs[i] = s;
    payloads[i] = payload;
  };
  const pop = (): [number, number] => {
    const at = times[0]!;
    const payload = payloads[0]!;
    size--;
    const t = times[size]!;
    const s = seqs[size]!;
    const p = payloads[size]!;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const c = r < size && (times[r]! < times[l]! || (times[r] === times[l] && seqs[r]! < seqs[l]!)) ? r : l;
      if (t < times[c]! || (t === times[c] && s < seqs[c]!)) break;
      times[i] = times[c]!;
      seqs[i] = seqs[c]!;
      payloads[i] = payloads[c]!;
      i = c;
    }
    times[i] = t;
    seqs[i] = s;
    payloads[i] = p;
    return [at, payload];
  };

  // xorshift32: cheap, seeded.
  let x = seed || 1;
  const latency = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return LATENCY_MS.min + ((x >>> 0) % (LATENCY_MS.max - LATENCY_MS.min + 1));
  };

  const keyspace = new Map<string, { value: number; expiresAt: number }>();
  for (let c = 0; c < CLIENTS; c++) push(0, SERVER_GET_ACQUIRE, c, 0);
  let events = 0;
  while (size > 0) {
    const [now, payload] = pop();
    if (now > horizonMs) break;
    events++;
    const kind = payload & 7;
    const client = (payload >> 3) & 511;
    switch (kind) {
      case SERVER_GET_ACQUIRE: {
        const held = keyspace.get('lock');
        const free = held === undefined || held.expiresAt <= now;
        if (free) keyspace.set('lock', { value: client, expiresAt: now + TTL_MS });
        push(now + latency(), CLIENT_ACQUIRE_REPLY, client, free ? 1 : 0);
        break;
      }
      case CLIENT_ACQUIRE_REPLY:
        if (payload >> 12) push(now + WORK_MS, WORK_DONE, client, 0);
        else push(now + RETRY_MS, RETRY, client, 0);
        break;
      case WORK_DONE:
        push(now + latency(), SERVER_GET_RELEASE, client, 0);
        break;
      case SERVER_GET_RELEASE: {
        const held = keyspace.get('lock');
        if (held && held.value === client) keyspace.delete('lock');
        push(now + latency(), CLIENT_RELEASE_REPLY, client, 0);
        break;
      }
      case CLIENT_RELEASE_REPLY:
      case RETRY:
        push(now + latency(), SERVER_GET_ACQUIRE, client, 0);
        break;
    }
  }
  return events;
}
