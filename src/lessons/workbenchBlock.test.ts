import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScenario } from '../scenario/running/run';
import { loadTestScripts } from '../testing/testKit';
import { formatDiagnostic } from '../scenario/diagnostic';
import { parseLesson } from './parse';
import type { Block } from './types';
import { checkWorkbenchBlocks, exploreInProcess, proveInProcess } from './workbenchChecks';

beforeAll(loadTestScripts);

const FRONT = `---
slug: wb
title: Workbench
course: e2e-fixtures
order: 1
readTime: 1
summary: A workbench block.
---

`;

/** The fixture recipes (the un-tokened DEL and its token-checked fix), as lessons/ would hold them. */
const readRef = (rel: string) => {
  try {
    return readFileSync(new URL(`fixtures/e2e/${rel}`, import.meta.url), 'utf8');
  } catch {
    return undefined;
  }
};

function lesson(block: string) {
  return parseLesson(`${FRONT}\`\`\`workbench\n${block}\`\`\`\n`, 'lessons/99-wb.md', { readRef });
}

function workbench(block: string): Extract<Block, { kind: 'workbench' }> {
  const parsed = lesson(block);
  if (parsed.diagnostics.length) throw new Error(parsed.diagnostics.map(formatDiagnostic).join('\n'));
  const found = parsed.lesson!.blocks.find((b) => b.kind === 'workbench');
  if (!found || found.kind !== 'workbench') throw new Error('no workbench block');
  return found;
}

describe('the workbench block', () => {
  it('ships the recipe as written (for the editor), validated, and only the path of the fix', () => {
    const block = workbench(
      'ref: scenarios/untokened-del.yaml\nfixed: scenarios/untokened-del-fixed.yaml\nbreak: single-writer\n',
    );
    expect(block.spec.text).toBe(readRef('scenarios/untokened-del.yaml'));
    // The instructor's schema modeline is left out of the learner's editor; the rest stays as written.
    const withModeline = (rel: string) =>
      rel.endsWith('modeline.yaml')
        ? `# yaml-language-server: $schema=../scenario.schema.json\n${readRef('scenarios/untokened-del.yaml')}`
        : readRef(rel);
    const parsed = parseLesson(
      `${FRONT}\`\`\`workbench\nref: scenarios/modeline.yaml\nfixed: scenarios/untokened-del-fixed.yaml\nbreak: single-writer\n\`\`\`\n`,
      'lessons/99-wb.md',
      { readRef: withModeline },
    );
    const modelined = parsed.lesson!.blocks.find((b) => b.kind === 'workbench');
    expect(modelined?.kind === 'workbench' && modelined.spec.text).toBe(readRef('scenarios/untokened-del.yaml'));
    expect(block.spec.scenario.id).toBe('untokened-del');
    expect(block.spec).toMatchObject({
      fixed: 'scenarios/untokened-del-fixed.yaml',
      break: 'single-writer',
      runs: 1000,
      at: { ref: { line: 11, col: 6 }, fixed: { line: 12, col: 8 } },
    });
    expect(JSON.stringify(block)).not.toContain('EVAL');
  });

  it('reports a bad block at its line and column, with a way out', () => {
    const messages = (block: string) => lesson(block).diagnostics.map(formatDiagnostic);
    expect(
      messages('ref: scenarios/nope.yaml\nfixed: scenarios/untokened-del-fixed.yaml\nbreak: single-writer\n'),
    ).toEqual([
      "lessons/99-wb.md:11:6: scenario file 'scenarios/nope.yaml' does not exist (create lessons/scenarios/nope.yaml or fix the path)",
    ]);
    expect(
      messages(
        'ref: scenarios/untokened-del.yaml\nfixed: scenarios/untokened-del-fixed.yaml\nbreak: single-writr\nruns: 0\n',
      ).join('\n'),
    ).toMatch(/99-wb\.md:13:8: .*single-writer[\s\S]*99-wb\.md:14:7: /);
    expect(
      messages(
        'ref: scenarios/untokened-del.yaml\nfixed: scenarios/untokened-del.yaml\nbreak: single-writer\nfix: x\n',
      )[0],
    ).toMatch(/^lessons\/99-wb\.md:14:1: unknown key 'fix'/);
  });

  it('lessons:check proves the explorer breaks the recipe and not the fix, and says so where it does not', async () => {
    const lessons = (block: string) => [lesson(block).lesson!];
    const good = await checkWorkbenchBlocks(
      lessons(
        'ref: scenarios/untokened-del.yaml\nfixed: scenarios/untokened-del-fixed.yaml\nbreak: single-writer\nruns: 300\n',
      ),
      readRef,
      runScenario,
    );
    expect(good.diagnostics).toEqual([]);
    expect(good.runs).toBeGreaterThan(300);

    // Swapped: the "recipe" cannot be broken, and the "fix" can.
    const swapped = await checkWorkbenchBlocks(
      lessons(
        'ref: scenarios/untokened-del-fixed.yaml\nfixed: scenarios/untokened-del.yaml\nbreak: single-writer\nruns: 300\n',
      ),
      readRef,
      runScenario,
    );
    expect(swapped.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(
        /^lessons\/99-wb\.md:11:6: the explorer found no run of scenarios\/untokened-del-fixed\.yaml that breaks single-writer \(300 runs, explorer seed 1\)/,
      ),
      expect.stringMatching(
        /^lessons\/99-wb\.md:12:8: the explorer breaks single-writer in the fix scenarios\/untokened-del\.yaml after \d+ runs .*seed 1 with 1 fault/,
      ),
    ]);
    // Two explorer searches of 300 runs or more: 12 s at load 14. A bound for a hang, not a speed.
  }, 120_000);

  it('lessons:check also proves, schedule by schedule, that one fault breaks the recipe and none breaks the fix', async () => {
    const check = (ref: string, fixed: string) =>
      checkWorkbenchBlocks(
        [
          lesson(`ref: scenarios/${ref}.yaml\nfixed: scenarios/${fixed}.yaml\nbreak: single-writer\nruns: 300\n`)
            .lesson!,
        ],
        readRef,
        runScenario,
        exploreInProcess,
        proveInProcess,
      );
    const good = await check('untokened-del', 'untokened-del-fixed');
    expect(good.diagnostics).toEqual([]);

    const swapped = await check('untokened-del-fixed', 'untokened-del');
    const messages = swapped.diagnostics.map(formatDiagnostic);
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^lessons\/99-wb\.md:11:6: no schedule of one fault breaks single-writer in scenarios\/untokened-del-fixed\.yaml \(\d+ schedules at 100 ms steps\)/,
      ),
    );
    // The break in the "fix" is told as the panel tells it, with a way to replay it.
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^lessons\/99-wb\.md:12:8: one fault breaks single-writer in the fix scenarios\/untokened-del\.yaml: At \d.*\(schedule \d+ of \d+\) \(a learner .*npm run sim -- lessons\/scenarios\/untokened-del\.yaml --seed \d+/,
      ),
    );
    // Four explorer searches and four exhaustive ones: 35 s at load 14, and 126 s in a CI run beside
    // two CPU hogs at load 14-26, past the 120 s this had. A bound for a hang, not a speed.
  }, 400_000);
});
