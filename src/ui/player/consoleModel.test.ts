import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../scenario/text/parse';
import { Simulation } from '../../scenario/running/simulation';
import { consoleTranscript } from './consoleModel';
import type { Action } from '../../actors/action';
import { simTime } from '../../sim/time';

// Barista A holds `lock` from 0 to its release at about 5 s; nobody holds it after.
const SCENARIO = `
id: console-warnings
title: Console warnings
clients:
  - id: A
    label: Barista A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 10000] }
      - { wait: 5s }
      - { write: espresso }
      - { redis: [DEL, lock] }
resource: { id: espresso }
`;

function transcript(actions: Action[]) {
  const parsed = parseScenario(SCENARIO, { file: 'console.yaml', line: 1 });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
  const events = new Simulation(parsed.scenario, { actions }).run().sim.trace.toArray();
  return consoleTranscript(events, events.length - 1);
}

describe("the console's warnings, read from the trace", () => {
  it('warns about a DEL while a client holds the lock, naming it, and not after it let go', () => {
    const [during, after] = transcript([
      { at: simTime(2000), do: 'command', target: 'r1', argv: ['DEL', 'lock'] },
      { at: simTime(8000), do: 'command', target: 'r1', argv: ['DEL', 'lock'] },
    ]);
    expect(during?.reply).toEqual(['(integer) 1']);
    expect(during?.warning).toMatch(/^DEL removes lock, the lock Barista A holds/);
    expect(after?.warning).toBeNull();
  });

  it('does not warn when the console deletes the lock it took itself', () => {
    const entries = transcript([
      { at: simTime(8000), do: 'command', target: 'r1', argv: ['SET', 'lock', 'mine', 'NX', 'PX', '5000'] },
      { at: simTime(9000), do: 'command', target: 'r1', argv: ['DEL', 'lock'] },
    ]);
    expect(entries.map((e) => e.warning)).toEqual([null, null]);
    expect(entries[1]?.reply).toEqual(['(integer) 1']);
  });
});
