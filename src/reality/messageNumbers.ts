import type { TraceEventMap } from '../sim/traceEvents';
import type { Report } from './protocol';

/**
 * A real run's messages numbered as the simulator numbers its own. A client numbers its own
 * commands and reports a reply under its command's number, when the reply reaches it; the
 * simulator gives every message, a reply too, a number of its own across the run, and records
 * each arrival (`net.deliver`), without which the timeline draws a message as still on its way
 * when the run ends. So each command gets the run's next number, and an answer becomes three
 * events at the moment the client had it: the command's arrival at the node (it arrived no later
 * than its reply left), the reply sent under a number of its own, and the reply's arrival.
 */
export class MessageNumbers {
  private last = 0;
  /** `<client>:<its number>` → the command's number in the run, and its label. */
  private readonly commands = new Map<string, { msg: number; label: string }>();

  /** The run's next message number (also for a reply a proxy dropped, which no client reported). */
  fresh(): number {
    return ++this.last;
  }

  /** What `report` from client `client` is in the trace. */
  of(client: string, report: Report): Report[] {
    const { kind, actor } = report;
    if (kind === 'request.timeout') {
      const data = report.data as TraceEventMap['request.timeout'];
      return [{ kind, actor, data: { ...data, msg: this.commands.get(`${client}:${data.msg}`)?.msg ?? data.msg } }];
    }
    if (kind !== 'net.send') return [report];
    const data = report.data as TraceEventMap['net.send'];
    if (actor === client) {
      const msg = this.fresh();
      this.commands.set(`${client}:${data.msg}`, { msg, label: data.label });
      return [{ kind, actor, data: { ...data, msg } }];
    }
    // The node's answer to the client's command of the same number.
    const command = this.commands.get(`${client}:${data.msg}`);
    if (!command) return [report];
    const reply = this.fresh();
    return [
      { kind: 'net.deliver', actor, data: { msg: command.msg, from: client, label: command.label } },
      { kind: 'net.send', actor, data: { msg: reply, to: client, label: data.label } },
      { kind: 'net.deliver', actor: client, data: { msg: reply, from: actor, label: data.label } },
    ];
  }
}
