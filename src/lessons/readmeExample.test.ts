import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../scenario/diagnostic';
import { runScenario } from '../scenario/running/run';
import { buildCatalog } from './catalog';
import { checkScenarioExpectations } from './scenarioExpectations';
import { checkSources } from './sourcesCheck';

/** The "complete lesson" in lessons/README.md, exactly as an author would copy it. */
function readmeExample(): string {
  const readme = readFileSync('lessons/README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## A complete lesson'));
  const match = /````markdown\n([\s\S]*?)\n````\n/.exec(section);
  if (!match) throw new Error('lessons/README.md has no complete example lesson');
  return `${match[1]}\n`;
}

describe('the authoring guide', () => {
  it("has a complete example lesson that passes every check, including its scenario's expect", async () => {
    const catalog = buildCatalog({
      courses: [{ file: 'lessons/courses.yaml', text: readFileSync('lessons/courses.yaml', 'utf8') }],
      lessons: [{ file: 'lessons/99-example.md', text: readmeExample() }],
      readRef: () => undefined,
    });
    expect(catalog.diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(checkSources(catalog.lessons)).toEqual([]);
    expect(catalog.lessons[0]!.blocks.map((b) => b.kind)).toEqual(['prose', 'scenario', 'quiz', 'compare', 'reflect']);
    const { diagnostics } = await checkScenarioExpectations(catalog.lessons, runScenario);
    expect(diagnostics).toEqual([]);
  }, 30_000);
});
