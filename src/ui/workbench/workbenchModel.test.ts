import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLessons } from '../../lessons/checkLessons';
import { runScenario } from '../../scenario/run';
import { checkScenarioText } from './checkScenarioText';
import { fileNameFor, lessonSkeleton, loadWork, saveWork, scenarioYaml, TEMPLATE } from './workbenchModel';

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

  it('fails lessons:check when its scenario does not do what it expects (so the check above can fail)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workbench-lesson-'));
    copyFileSync('lessons/courses.yaml', join(dir, 'courses.yaml'));
    const holds = TEMPLATE.replace('outcome: violated', 'outcome: holds');
    writeFileSync(join(dir, '99-my-lock.md'), lessonSkeleton(holds, valid(holds), 'redis-locks'));
    expect((await checkLessons([dir], runScenario)).exitCode).toBe(1);
  });
});

describe('work in progress', () => {
  it('survives a save and a load, and a broken or missing store loads nothing', () => {
    const map = new Map<string, string>();
    const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
    expect(saveWork(storage, 'id: x')).toBe(true);
    expect(loadWork(storage)).toBe('id: x');
    map.set([...map.keys()][0]!, '{not json');
    expect(loadWork(storage)).toBeNull();
    expect(loadWork(null)).toBeNull();
    expect(saveWork({ setItem: () => { throw new Error('quota'); } }, 'x')).toBe(false);
  });
});
