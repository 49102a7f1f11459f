import { Agent, request } from 'node:http';
import type { ClientConfig, Report, WriteRequest } from './protocol';

/** A real client's line to the resource service (resourceProcess.ts). */
export interface ResourceLine {
  /** Opens the connection before the run starts: a first request's set-up would otherwise count as the write's own time. */
  warmUp(): Promise<void>;
  /** Writes the client's order with `token`, reported as the simulator's `resource.request`; true when the resource accepted it. */
  write(token: number | null): Promise<boolean>;
}

export function resourceLine(config: ClientConfig, report: (r: Report) => void): ResourceLine {
  // One kept-alive connection, as the simulator's client has one line to the resource.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (body: WriteRequest | null): Promise<boolean> =>
    new Promise((resolve, reject) => {
      const req = request(config.resourceUrl, { method: 'POST', agent }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve((JSON.parse(text) as { accepted: boolean }).accepted));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  return {
    warmUp: () => post(null).then(() => undefined),
    write(token) {
      const { id } = config;
      report({
        kind: 'resource.request',
        actor: id,
        data: { resource: config.resourceId, token, value: `${id}'s order` },
      });
      return post({ from: id, token });
    },
  };
}
