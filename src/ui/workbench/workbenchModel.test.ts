import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLessons } from '../../lessons/checkLessons';
import { exploreScenario } from '../../scenario/running/explore';
import { loadScriptEngine, runScenario } from '../../scenario/running/run';
import { checkScenarioText } from './checkScenarioText';
import {
  fileNameFor,
  lessonSkeleton,
  loadedWorkNotice,
  loadWork,
  runAsScenarioYaml,
  saveWork,
  scenarioYaml,
  TEMPLATE,
} from './workbenchModel';
import { simTime } from '../../sim/time';
import { loadScenario } from '../../cli/loadScenario';

function valid(text: string) {
  const result = checkScenarioText(text);
  if (!result.ok) throw new Error(result.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`).join('\n'));
  return result.scenario;
}

describe('the workbench template', () => {
  it('is a valid step-list scenario whose plain DEL lets two baristas write', async () => {
    const scenario = valid(TEMPLATE);
    expect(scenario.clients.every((c) => c.steps)).toBe(true);
    const run = await runScenario(scenario);
    expect(run.verdicts.find((v) => v.invariant === 'single-writer')?.holds).toBe(false);
  });

  it('written back as YAML (a share link, a lesson scenario), reads back to the same scenario', () => {
    const scenario = valid(TEMPLATE);
    expect(valid(scenarioYaml(scenario, 'From a link'))).toEqual(scenario);
    // The window the player opens on goes with it.
    const viewed = valid(TEMPLATE.replace(/^title: .*$/m, '$&\nview: { from: 0ms, to: 60ms }'));
    expect(viewed.view).toEqual({ from: 0, to: 60 });
    expect(valid(scenarioYaml(viewed, 'From a link'))).toEqual(viewed);
  });

  it("keeps a shared run's learner actions as script steps", () => {
    const scenario = valid(TEMPLATE);
    const text = scenarioYaml(scenario, 'From a link', {
      seed: 4,
      fencing: false,
      actions: [{ at: simTime(2000), do: 'pause', target: 'A', forMs: 1000 }],
    });
    const back = valid(text);
    expect(back.seed).toBe(4);
    expect(back.script).toEqual([{ at: simTime(2000), do: 'pause', target: 'A', for: 1000 }]);
  });

  it("writes a run's changes to the script into the script: lesson 5's pause shortened to 5 s and moved to 1.9 s", () => {
    const loaded = loadScenario('lessons/05-paused-barista.md#paused-barista');
    if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
    const edits = [
      { edit: 'resize' as const, mark: 0, lengthMs: 5000 },
      { edit: 'move' as const, mark: 0, toMs: 1900 },
    ];
    const back = valid(scenarioYaml(loaded.scenario, 'From a lesson', { seed: 7, fencing: false, actions: [], edits }));
    expect(back.script).toEqual([{ at: 1900, do: 'pause', target: 'A', for: 5000 }]);
  });
});

describe('the lesson skeleton', () => {
  it('passes lessons:check, scenario run included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workbench-lesson-'));
    copyFileSync('lessons/courses.yaml', join(dir, 'courses.yaml'));
    const scenario = valid(TEMPLATE);
    const file = fileNameFor(scenario.id, 'md');
    writeFileSync(join(dir, file), lessonSkeleton(TEMPLATE, scenario, 'redis-locks'));
    const report = await checkLessons([dir], runScenario);
    expect(report.lines.join('\n')).toMatch(/1 lesson, 1 scenario run, no problems/);
    expect(report.exitCode).toBe(0);
  });

  it('holds a counterexample Break it found: its faults, its seed and the break, reproduced by lessons:check', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workbench-lesson-'));
    copyFileSync('lessons/courses.yaml', join(dir, 'courses.yaml'));
    const scenario = valid(readFileSync('lessons/scenarios/explore-turns.yaml', 'utf8'));
    const found = exploreScenario(scenario, { invariant: 'single-writer', explorerSeed: 4 }, await loadScriptEngine());
    expect(found.found && found.actions.length).toBeGreaterThan(0);
    const config = { seed: found.seed, fencing: false, actions: found.actions };
    const replay = await runScenario(scenario, config);
    const yaml = runAsScenarioYaml(scenario, config, replay.verdicts);
    expect(valid(yaml).expect).toContainEqual({ invariant: 'single-writer', outcome: 'violated' });
    writeFileSync(join(dir, '99-explore-turns.md'), lessonSkeleton(yaml, scenario, 'redis-locks'));
    const report = await checkLessons([dir], runScenario);
    expect(report.lines.join('\n')).toMatch(/1 lesson, 1 scenario run, no problems/);
    // Without the faults, the same lesson fails its check: they are what breaks it.
    writeFileSync(
      join(dir, '99-explore-turns.md'),
      lessonSkeleton(runAsScenarioYaml(scenario, { ...config, actions: [] }, replay.verdicts), scenario, 'redis-locks'),
    );
    expect((await checkLessons([dir], runScenario)).exitCode).toBe(1);
  });

  it('fails lessons:check when its scenario does not do what it expects (so the check above can fail)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workbench-lesson-'));
    copyFileSync('lessons/courses.yaml', join(dir, 'courses.yaml'));
    const holds = TEMPLATE.replace('outcome: violated', 'outcome: holds');
    writeFileSync(join(dir, '99-my-lock.md'), lessonSkeleton(holds, valid(holds), 'redis-locks'));
    expect((await checkLessons([dir], runScenario)).exitCode).toBe(1);
  });
});

describe('hostile text', () => {
  it('refuses an alias bomb, runaway nesting and a huge paste quickly, each at its line', () => {
    // Quickly in this process's CPU time (46 ms here), which other processes on a busy machine do
    // not add to: in wall time the four once took 618 ms at load 20, against the 500 allowed.
    const cpuBefore = process.cpuUsage();
    const bomb = checkScenarioText(
      'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c]\n',
    );
    const deep = checkScenarioText(`id: x\nsteps: ${'['.repeat(10_000)}`);
    const indented = checkScenarioText(Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}k:`).join('\n'));
    const huge = checkScenarioText(`id: ${'x'.repeat(1_000_000)}`);
    const cpu = process.cpuUsage(cpuBefore);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(500);
    expect(!bomb.ok && bomb.diagnostics[0]).toMatchObject({
      line: 2,
      message: expect.stringMatching(/expand to too many values/),
    });
    expect(!deep.ok && deep.diagnostics[0]).toMatchObject({
      line: 2,
      col: 72,
      message: 'the YAML nests more than 64 levels deep here',
    });
    expect(!indented.ok && indented.diagnostics[0]).toMatchObject({
      line: 130,
      message: 'the YAML nests more than 64 levels deep here',
    });
    expect(!huge.ok && huge.diagnostics[0]?.message).toBe(
      'the scenario is over 64,000 characters long, the most Lockstep reads',
    );
  });

  it('places a syntax error at its line', () => {
    const result = checkScenarioText('id: x\ntitle: Yes: it does\n');
    expect(!result.ok && result.diagnostics[0]).toMatchObject({
      line: 2,
      message: expect.stringMatching(/contains ': '/),
    });
  });
});

describe('work in progress', () => {
  it('survives a save and a load, and a broken or missing store loads nothing', () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    };
    expect(saveWork(storage, 'id: x')).toBe('saved');
    expect(loadWork(storage)).toEqual({ text: 'id: x' });
    expect(loadWork(null)).toEqual({ text: null });
    expect(saveWork(null, 'x')).toBe('off');
    expect(
      saveWork(
        {
          setItem: () => {
            throw new Error('SecurityError');
          },
        },
        'x',
      ),
    ).toBe('off');
    // A full storage is named as such: the learner can make room.
    expect(
      saveWork(
        {
          setItem: () => {
            throw new DOMException('exceeded', 'QuotaExceededError');
          },
        },
        'x',
      ),
    ).toBe('full');
  });

  it('keeps a copy of saved work it cannot use, and says where', () => {
    const map = new Map<string, string>([['lockstep.workbench.v1', '{not json']]);
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    };
    const unreadable = loadWork(storage, () => 1700000000000);
    expect(unreadable).toEqual({
      text: null,
      problem: 'unreadable',
      backupKey: 'lockstep.workbench.v1.backup.1700000000000',
    });
    expect(map.get('lockstep.workbench.v1.backup.1700000000000')).toBe('{not json');
    expect(loadedWorkNotice(unreadable)).toBe(
      'Your saved workbench text could not be read, so the editor starts from the template. A copy was kept in this browser under "lockstep.workbench.v1.backup.1700000000000".',
    );

    map.set('lockstep.workbench.v1', JSON.stringify({ version: 2, text: 'id: from the future' }));
    const newer = loadWork(storage, () => 1700000000001);
    expect(newer).toMatchObject({ problem: 'newer' });
    expect(map.get('lockstep.workbench.v1.backup.1700000000001')).toContain('from the future');
    expect(loadedWorkNotice(newer)).toMatch(/^Your saved workbench text was saved by a newer version of Lockstep/);

    const full = {
      getItem: () => '[]',
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(loadedWorkNotice(loadWork(full))).toMatch(/This browser would not keep a copy of it\.$/);
    expect(loadedWorkNotice({ text: 'id: x' })).toBeNull();
  });
});
