import type { Network } from '../../net/network';
import type { Sim } from '../../sim/sim';
import type { Process } from '../process/process';
import { describeAnswer, type LockService } from './lockService';

export type ServiceResult = { ok: true; answer: number | null } | { ok: false; reason: 'timeout' };

/**
 * A client's connection to a lock service: one request, one answer, with an optional timeout,
 * like the Redis connection (rpc.ts), including the ambiguous outcome: a request that timed out
 * may still have been applied, and its late answer is recorded as `request.late`.
 */
export class ServiceRpc {
  constructor(
    private readonly sim: Sim,
    private readonly network: Network,
    private readonly process: Process,
    /** Local-clock ms to wait for an answer, or null to wait forever. */
    private readonly timeoutMs: number | null,
  ) {}

  /** Sends `argv` to `service`; `done` runs exactly once, on the answer or on the timeout. */
  call(service: LockService, argv: string[], done: (result: ServiceResult) => void): void {
    const { network, process, sim } = this;
    const from = process.id;
    const label = service.label(argv);
    let settled = false;
    let timer: number | null = null;
    const msg = network.send(from, service.process, label, () =>
      service.handle(argv, from, msg, (answer) =>
        network.send(service.id, process, describeAnswer(answer), () => {
          if (settled) {
            if (timer === null) return; // a duplicated answer: the first copy was handled
            timer = null;
            sim.record('request.late', from, { msg, from: service.id, label });
            return;
          }
          settled = true;
          if (timer !== null) sim.kernel.cancel(timer);
          timer = null;
          done({ ok: true, answer });
        }),
      ),
    );
    if (this.timeoutMs === null) return;
    timer = process.setTimer(this.timeoutMs, () => {
      if (settled) return;
      settled = true;
      sim.record('request.timeout', from, { msg, to: service.id, label });
      done({ ok: false, reason: 'timeout' });
    });
  }
}
