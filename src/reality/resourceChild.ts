import type { ResourceSpec } from '../actors/resources/buildResource';
import type { Children } from './children';
import type { Stamped } from './protocol';

/** The resource service as the harness runs it: the port it listens on, and a way to wait for its last reports. */
export interface ResourceChild {
  port: number;
  /** Resolves once every report the service has sent so far has arrived (its channel is not the clients'). */
  flush(): Promise<void>;
}

/**
 * Starts the resource service (resourceProcess.ts) for `spec`, hands each report it sends to
 * `onReport`, and resolves once it listens. `breakFencing` removes its fencing check (to show a
 * difference is caught).
 */
export function startResourceChild(
  children: Children,
  bundle: string,
  spec: ResourceSpec,
  breakFencing: boolean,
  onReport: (report: Stamped) => void,
): Promise<ResourceChild> {
  const env = { ...process.env, LOCKSTEP_REALITY_BREAK_FENCING: breakFencing ? '1' : '0' };
  const child = children.start(process.execPath, [bundle, JSON.stringify(spec)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env,
  });
  const flush = () =>
    new Promise<void>((resolve) => {
      const onFlushed = (m: { flushed?: true }) => m.flushed && (child.off('message', onFlushed), resolve());
      child.on('message', onFlushed);
      child.send({ flush: true });
    });
  return new Promise((resolve, reject) => {
    child.on('message', (m: Stamped | { ready: true; port: number } | { flushed: true }) => {
      if ('port' in m) resolve({ port: m.port, flush });
      else if ('kind' in m) onReport(m);
    });
    child.once('exit', (code) => reject(new Error(`the resource service exited (${code}) before it was ready`)));
  });
}
