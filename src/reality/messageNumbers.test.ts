import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../sim/traceEvents';
import { runSteps } from '../sim/steps';
import { messageSteps } from '../timeline/messages';
import { MessageNumbers } from './messageNumbers';
import type { Report } from './protocol';

const command = (client: string, msg: number, to: string, label: string): Report => ({
  kind: 'net.send',
  actor: client,
  data: { msg, to, label },
});
const reply = (node: string, msg: number, client: string): Report => ({
  kind: 'net.send',
  actor: node,
  data: { msg, to: client, label: 'reply' },
});

describe("a real run's messages, numbered as the simulator numbers them", () => {
  it('gives every command and every reply a number of its own, across clients', () => {
    const numbers = new MessageNumbers();
    // A and B each number their own commands from 1; each reply comes under its command's number.
    const trace = [
      ...numbers.of('A', command('A', 1, 'r1', 'SET lock A-1 NX PX 6000')),
      ...numbers.of('B', command('B', 1, 'r1', 'SET lock B-2 NX PX 6000')),
      ...numbers.of('A', reply('r1', 1, 'A')),
      ...numbers.of('B', { kind: 'request.timeout', actor: 'B', data: { msg: 1, to: 'r1', label: 'SET' } }),
    ];
    expect(trace).toEqual([
      { kind: 'net.send', actor: 'A', data: { msg: 1, to: 'r1', label: 'SET lock A-1 NX PX 6000' } },
      { kind: 'net.send', actor: 'B', data: { msg: 2, to: 'r1', label: 'SET lock B-2 NX PX 6000' } },
      // A's command arrived no later than its reply left; the reply is message 3, and arrived.
      { kind: 'net.deliver', actor: 'r1', data: { msg: 1, from: 'A', label: 'SET lock A-1 NX PX 6000' } },
      { kind: 'net.send', actor: 'r1', data: { msg: 3, to: 'A', label: 'reply' } },
      { kind: 'net.deliver', actor: 'A', data: { msg: 3, from: 'r1', label: 'reply' } },
      { kind: 'request.timeout', actor: 'B', data: { msg: 2, to: 'r1', label: 'SET' } },
    ]);
    expect(numbers.fresh()).toBe(4);
  });

  it('leaves the timeline no answered message drawn as still on its way at the end', () => {
    const numbers = new MessageNumbers();
    const reports: [string, Report][] = [
      ['A', command('A', 1, 'r1', 'SET')],
      ['A', reply('r1', 1, 'A')],
      ['A', command('A', 2, 'r1', 'EVAL release')],
      ['A', reply('r1', 2, 'A')],
      ['B', command('B', 1, 'r1', 'SET')],
    ];
    const trace = reports
      .flatMap(([client, r]) => numbers.of(client, r))
      .map((r, id) => ({ id, at: id * 10, ...r }) as TraceEvent);
    const marks = runSteps(messageSteps(trace, 1000));
    expect(marks.map((m) => [m.from, m.to, m.fate])).toEqual([
      ['A', 'r1', 'delivered'],
      ['r1', 'A', 'delivered'],
      ['A', 'r1', 'delivered'],
      ['r1', 'A', 'delivered'],
      // B's command was never answered: on its way still, as in the simulator.
      ['B', 'r1', 'inFlight'],
    ]);
  });
});
