/**
 * The protected resource as a real service: a child process serving HTTP on loopback, running
 * the simulator's own resource (`buildResource`: a store or a row that applies the scenario's
 * fencing rule, a row that compares lock values, an inventory, a payment provider, a dispatch
 * service), so a write is judged by
 * the same code on both sides. Each read and write it records (`resource.read`,
 * `resource.write`) goes to the harness as a report, stamped when it was decided. Started by the
 * harness with the scenario's ResourceSpec in argv[2].
 *
 * `LOCKSTEP_REALITY_BREAK_FENCING=1` makes it accept every write whatever its token: the real
 * side's fencing check removed, so a test can show the harness reports the difference.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildResource, type ResourceSpec } from '../actors/resources/buildResource';
import { Sim } from '../sim/sim';
import { stamped, type ResourceCall } from './protocol';

const spec = JSON.parse(process.argv[2]!) as ResourceSpec;
const breakFencing = process.env.LOCKSTEP_REALITY_BREAK_FENCING === '1';
// A run of one resource and no clock: the trace is only where the resource writes what it decided.
const sim = new Sim(0);
// Each client's lock value as its last call carried it (a restarted client draws a new one).
const values = new Map<string, string>();
const resource = buildResource(
  sim,
  { ...spec, fencing: spec.fencing && !breakFencing },
  (client) => values.get(client) ?? client,
);
let reported = 0;

/** Sends what the resource recorded since the last call. */
function report(): void {
  const events = sim.trace.toArray();
  for (const e of events.slice(reported))
    process.send!(stamped({ kind: e.kind, actor: e.actor, data: e.data } as never));
  reported = events.length;
}

function answer(call: ResourceCall): unknown {
  values.set(call.from, call.value);
  try {
    return call.op === 'read'
      ? resource.read(call.from)
      : { accepted: resource.act(call.from, call.token, call.basis) };
  } finally {
    report();
  }
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    // `null` is a client's warm-up before the run: it opens the connection and does nothing.
    const call = JSON.parse(body) as ResourceCall | null;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(call === null ? {} : answer(call)));
  });
});
// No idle timeout (Node's is 5 s): the simulator's resource never drops a client's connection,
// and a write the scenario slows by more than that (a link's latency, held in a link proxy) must
// still find its connection open when it arrives.
server.keepAliveTimeout = 0;
server.listen(0, '127.0.0.1', () => process.send!({ ready: true, port: (server.address() as AddressInfo).port }));
// The harness asks before it ends the run: every report sent before this answer has arrived.
process.on('message', (m: { flush?: true }) => m.flush && process.send!({ flushed: true }));
// The harness gone, nothing is left to serve: a child never outlives it.
process.on('disconnect', () => process.exit(0));
