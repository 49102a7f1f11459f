import { Agent, request } from 'node:http';
import type { ReadResult } from '../actors/resources/resource';
import type { ClientConfig, Report, ResourceCall } from './protocol';

/** A real client's line to the resource service (resourceProcess.ts). */
export interface ResourceLine {
  /** Opens the connection before the run starts: a first request's set-up would otherwise count as the call's own time. */
  warmUp(): Promise<void>;
  /** Reads the resource: the basis of the change, and whether there is anything to do. */
  read(): Promise<ReadResult>;
  /** Makes the client's change with `token` and what it read, reported as the simulator's `resource.request`; true when the resource accepted it. */
  write(token: number | null, basis: ReadResult | null): Promise<boolean>;
}

export function resourceLine(config: ClientConfig, report: (r: Report) => void): ResourceLine {
  // One kept-alive connection, as the simulator's client has one line to the resource.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const call = <T>(body: ResourceCall | null): Promise<T> =>
    new Promise((resolve, reject) => {
      const req = request(config.resourceUrl, { method: 'POST', agent }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(JSON.parse(text) as T));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const { id } = config;
  return {
    warmUp: () => call(null).then(() => undefined),
    read: () => call<ReadResult>({ op: 'read', from: id, value: config.value }),
    async write(token, basis) {
      report({
        kind: 'resource.request',
        actor: id,
        data: { resource: config.resourceId, token, ...config.request },
      });
      return (await call<{ accepted: boolean }>({ op: 'act', from: id, value: config.value, token, basis })).accepted;
    },
  };
}
