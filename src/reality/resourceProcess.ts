/**
 * The protected resource as a real service: a child process serving HTTP on loopback. It
 * applies or refuses each write by the scenario's fencing rule (the highest token seen; a
 * lower one is stale, an equal one too under `strict`) and reports every decision to the
 * harness as a `resource.write`. Started by the harness with its ResourceConfig in argv[2].
 *
 * `LOCKSTEP_REALITY_BREAK_FENCING=1` makes it accept every write whatever its token: the real
 * side's fencing check removed, so a test can show the harness reports the difference.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stamped, type Report, type ResourceConfig, type WriteRequest } from './protocol';

const config = JSON.parse(process.argv[2]!) as ResourceConfig;
const fencingChecked = config.fencing && process.env.LOCKSTEP_REALITY_BREAK_FENCING !== '1';
let highestToken: number | null = null;

function refusal(token: number | null): string | null {
  if (!fencingChecked) return null;
  if (token === null) return 'no fencing token';
  if (highestToken === null) return null;
  if (token < highestToken)
    return config.kind === 'db-row'
      ? `UPDATE matched 0 rows: fence_token is ${highestToken}, this write carries ${token}`
      : `stale token ${token} < ${highestToken}`;
  if (token === highestToken && config.fenceCompare === 'strict')
    return `token ${token} was already used (strict: one write per token)`;
  return null;
}

function write({ from, token }: WriteRequest): { accepted: boolean } {
  const reason = refusal(token);
  const accepted = reason === null;
  const report: Report = {
    kind: 'resource.write',
    actor: config.id,
    data: { from, token, value: `${from}'s order`, accepted, highestToken, reason },
  };
  process.send!(stamped(report));
  if (accepted && token !== null) highestToken = Math.max(highestToken ?? token, token);
  return { accepted };
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    // `null` is a client's warm-up before the run: it opens the connection and writes nothing.
    const asked = JSON.parse(body) as WriteRequest | null;
    const answer = asked === null ? { accepted: false } : write(asked);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
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
