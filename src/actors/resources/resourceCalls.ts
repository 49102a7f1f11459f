import type { Endpoint, Network } from '../../net/network';
import type { Sim } from '../../sim/sim';
import type { ReadResult, Resource } from './resource';

/** A client's line to the resource: who it is, the process its answers reach, and the network between. */
export interface ResourceLine {
  sim: Sim;
  id: string;
  process: Endpoint;
  network: Network;
  resource: Resource;
}

/** Reads the resource over the network; `done` gets what was read (the basis of a conditional write). */
export function readResource(
  { id, process, network, resource }: ResourceLine,
  done: (result: ReadResult) => void,
): void {
  network.send(id, resource.process, 'read', () => {
    const result = resource.read(id);
    network.send(resource.id, process, result.value, () => done(result));
  });
}

/**
 * Sends the client's write (or its resource's own kind of request: a charge, an assignment) with
 * `token` and the `basis` it read, records the request, and tells `done` whether it was accepted.
 */
export function writeResource(
  { sim, id, process, network, resource }: ResourceLine,
  token: number | null,
  basis: ReadResult | null,
  done: (accepted: boolean) => void,
): void {
  const request = resource.describeRequest(id, token);
  sim.record('resource.request', id, {
    resource: resource.id,
    token,
    value: request.value,
    ...(request.op === 'write' ? {} : { op: request.op }),
  });
  network.send(id, resource.process, request.label, () => {
    const accepted = resource.act(id, token, basis);
    network.send(resource.id, process, accepted ? 'accepted' : 'rejected', () => done(accepted));
  });
}
