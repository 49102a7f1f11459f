import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../check/verdict';
import { formatDiagnostic } from '../scenario/diagnostic';
import { checkLessons } from './checkLessons';
import { parseLesson } from './parse';
import type { ScenarioRunner } from './scenarioExpectations';

const FRONTMATTER = [
  '---',
  'slug: yaml-mistakes',
  'title: YAML mistakes',
  'course: fixtures',
  'order: 1',
  'readTime: 5',
  'summary: One mistake each.',
  '---',
  '',
];

/** A lesson whose one scenario block holds `yaml`; the block's first YAML line is file line 11. */
function lessonWith(yaml: string): string {
  return [...FRONTMATTER, '```scenario', yaml, '```', ''].join('\n');
}

/** What lessons:check prints for the lesson: `line:col: message (hint)`, without the file name. */
function problems(text: string): string[] {
  return parseLesson(text, 'l.md').diagnostics.map((d) => formatDiagnostic(d).replace(/^l\.md:/, ''));
}

describe('common YAML mistakes, translated into what to change at the line to change, once', () => {
  it('a key indented under a key that already has a value', () => {
    const out = problems(lessonWith('id: a\nseed: 1\n  horizon: 60s\nclients: []'));
    expect(out).toEqual([
      "13:3: 'horizon' is indented further than 'seed' on the line above, so YAML reads it as part of seed's value (1) (to make it a key next to 'seed', start it at column 1; to put it inside 'seed', write 'seed:' with nothing after it and indent its keys below)",
    ]);
    expect(out.join()).not.toMatch(/Nested mappings|compact mappings|Implicit keys/);
  });

  it('a key that lines up with no key above it names the columns it could move to', () => {
    expect(problems(lessonWith('id: a\nresource:\n    id: espresso\n  fencing: true'))).toEqual([
      "14:3: 'fencing' starts at column 3, which lines up with nothing above it (start it at column 5, under 'id' on line 13, or start it at column 1, under 'resource' on line 12, to make it a key of that mapping)",
    ]);
  });

  it('a list item out of line with the items above it', () => {
    expect(problems(lessonWith('id: a\nclients:\n  - id: A\n    recipe: naive\n   - id: B'))).toEqual([
      '15:4: this list item starts at column 4, which lines up with nothing above it (start it at column 3, under the dash on line 13, to make it an item of that list)',
    ]);
  });

  it('a tab used for indentation', () => {
    expect(problems(lessonWith('id: a\nresource:\n\tid: espresso'))).toEqual([
      '13:1: this line is indented with a tab; YAML indents with spaces only (replace the tab with spaces (two per level))',
    ]);
  });

  it('an unclosed quote is reported where it opens, not at the end of the block', () => {
    expect(problems(lessonWith('id: a\ntitle: "The paused barista\nseed: 7\nclients: []'))).toEqual([
      '12:8: the double quote opened here is never closed, so YAML reads every line after it (to line 14) as one text (add the closing " at the end of the value on this line)',
    ]);
    expect(problems(lessonWith("id: a\ntitle: 'The paused barista\nseed: 7"))[0]).toMatch(
      /^12:8: the single quote opened here is never closed/,
    );
  });

  it('an unclosed bracket or brace is reported on its own line', () => {
    expect(problems(lessonWith('id: a\nclients: [A, B\nseed: 7'))).toEqual([
      "12:10: the '[' opened on line 12 is never closed (add ']' after the last item, on this line)",
    ]);
    expect(problems(lessonWith('id: a\nresource: { id: espresso\nseed: 7'))).toEqual([
      "12:11: the '{' opened on line 12 is never closed (add '}' after the last entry, on this line)",
    ]);
  });

  it('a list item among the keys of a mapping', () => {
    expect(problems(lessonWith('id: a\nresource:\n  id: espresso\n  - fencing: true'))).toEqual([
      "14:3: a list item ('- ') among the keys of 'resource': a mapping cannot also hold list items (if resource is a list, start each of its entries with '- ' (line 13 too); otherwise remove the '- ' here)",
    ]);
  });

  it('the same mistakes in the frontmatter are placed at their file lines', () => {
    const text = [
      '---',
      'slug: yaml-mistakes',
      'title: YAML mistakes',
      'course: fixtures',
      'order: 1',
      '  readTime: 5',
      'summary: One.',
      '---',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      "6:3: 'readTime' is indented further than 'order' on the line above, so YAML reads it as part of order's value (1) (to make it a key next to 'order', start it at column 1; to put it inside 'order', write 'order:' with nothing after it and indent its keys below)",
    ]);
  });
});

describe('one error, one message', () => {
  const SCENARIO = [
    'id: paused',
    'title: The paused barista',
    'seed: 7',
    'clients:',
    '  - { id: A, recipe: lease-with-token, ttl: 10s, work: 6s }',
    'resource: { id: espresso }',
    'expect: { invariant: single-writer, outcome: violated }',
  ].join('\n');

  it('a broken scenario is reported once, not again by the compare block that uses it', () => {
    const text = [
      ...FRONTMATTER,
      '```scenario',
      SCENARIO.replace('seed: 7', 'seed: 7\n  horizon: 60s'),
      '```',
      '',
      '```compare',
      'scenario: paused',
      'left: { label: Off, fencing: false }',
      'right: { label: On, fencing: true }',
      '```',
      '',
    ].join('\n');
    const out = problems(text);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^14:3: 'horizon' is indented further than 'seed'/);
  });

  it("a frontmatter mistake does not also skip the lesson's scenario runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lockstep-yaml-'));
    writeFileSync(
      join(dir, 'courses.yaml'),
      '- { id: fixtures, title: Fixtures, order: 1, description: Test lessons. }\n',
    );
    const broken = [
      ...FRONTMATTER.slice(0, 5),
      '  readTime: 5',
      ...FRONTMATTER.slice(6),
      '```scenario',
      SCENARIO,
      '```',
      '',
    ].join('\n');
    writeFileSync(join(dir, '01-yaml-mistakes.md'), broken);
    const ran: string[] = [];
    const held: Verdict = {
      invariant: 'single-writer',
      holds: true,
      atMs: null,
      eventIds: [],
      explanation: '',
      violations: 0,
    };
    const runner: ScenarioRunner = async (scenario) => {
      ran.push(scenario.id);
      return { verdicts: [held] };
    };
    const report = await checkLessons([dir], runner, dir);
    expect(ran).toEqual(['paused']);
    expect(report.lines.filter((l) => l.startsWith('01-yaml-mistakes.md:6:3:'))).toHaveLength(1);
    // The scenario's own problem is still found: its expect says violated, the stand-in run held.
    expect(
      report.lines.some((l) =>
        /^01-yaml-mistakes\.md:10:1: scenario 'paused': expected single-writer to be violated/.test(l),
      ),
    ).toBe(true);
  });
});
