import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadActions, loadScenario } from './loadScenario';

const loaded = loadScenario('lessons/scenarios/paused-barista.yaml');
if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
const scenario = loaded.scenario;
const dir = mkdtempSync(join(tmpdir(), 'actions-'));
const actionsFile = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return loadActions(file, scenario);
};

describe('npm run sim -- --actions file.json', () => {
  it('reads a valid list, in time order', () => {
    const read = actionsFile(
      'ok.json',
      '[{"at": 3000, "do": "heal"}, {"at": 1000, "do": "pause", "target": "A", "forMs": 500}]',
    );
    expect(read).toEqual({
      ok: true,
      actions: [
        { at: 1000, do: 'pause', target: 'A', forMs: 500 },
        { at: 3000, do: 'heal' },
      ],
    });
  });

  it('says what an actions file is when given something else', () => {
    expect(actionsFile('obj.json', '{"x":1}')).toEqual({
      ok: false,
      problems: [
        `${dir}/obj.json:1:1: the file should be an array (an actions file is a JSON list like [{"at": 2000, "do": "pause", "target": "A", "forMs": 15000}])`,
      ],
    });
  });

  it('refuses a negative time and an unknown action at their place', () => {
    expect(actionsFile('neg.json', '[{"at": -5, "do": "pause", "target": "A"}]')).toEqual({
      ok: false,
      problems: [`${dir}/neg.json:1:9: [0].at: must not be negative`],
    });
    const unknown = actionsFile('do.json', '[\n  {"at": 5, "do": "pasue", "target": "A"}\n]');
    expect(unknown).toEqual({
      ok: false,
      problems: [
        `${dir}/do.json:2:19: [0].do must be one of: pause, resume, crash, restart, clock-jump, partition, heal, network, command, failover, power-loss (did you mean 'pause'?)`,
      ],
    });
  });

  it('refuses actors the scenario does not have and an upside-down latency range', () => {
    const read = actionsFile(
      'actors.json',
      '[{"at": 1, "do": "pause", "target": "Q"}, {"at": 2, "do": "network", "latency": {"dist": "uniform", "minMs": 9, "maxMs": 2}}]',
    );
    expect(read).toEqual({
      ok: false,
      problems: [
        `${dir}/actors.json:1:37: [0].target: 'Q' is not an actor of scenario 'paused-barista' (it has r1, A, B, espresso)`,
        `${dir}/actors.json:1:110: [1].latency.minMs: 9 is more than maxMs (2) (swap them: min is the shortest delay)`,
      ],
    });
  });
});

describe('a power loss is for Redis nodes', () => {
  it('refuses one on a lock service, which writes to disk before it answers (it did nothing)', () => {
    const withService = loadScenario('lessons/scenarios/lease-service-fenced.yaml');
    if (!withService.ok) throw new Error(withService.problems.join('\n'));
    const file = join(dir, 'service.json');
    writeFileSync(file, '[{"at": 1000, "do": "power-loss", "target": "etcd"}]');
    expect(loadActions(file, withService.scenario)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/\[0\]\.target: 'etcd' is not a Redis node of scenario 'lease-service-fenced'/)],
    });
  });
});
