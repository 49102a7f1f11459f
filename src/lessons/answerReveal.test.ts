import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../scenario/diagnostic';
import { checkAnswerReveals } from './answerRevealCheck';
import { parseLesson } from './parse';

const FRONT = `---
slug: reveal
title: Reveal
course: fixtures
order: 1
readTime: 3
summary: A quiz, a run, and what the run showed.
sources: [{ title: Redis, url: "https://redis.io/", by: Redis }]
---
`;

const QUIZ = `\`\`\`quiz
id: predict
kind: single
question: How long may A hold the lock?
options:
  - { id: ttl, text: "10 000 ms", explanation: No. }
  - { id: validity, text: "9 848 ms", correct: true, explanation: Yes. }
\`\`\`
`;

function lessonOf(body: string) {
  const text = FRONT + body;
  const parsed = parseLesson(text, 'lessons/01-reveal.md', { readRef: () => undefined });
  return { text, parsed };
}

function problems(body: string): string[] {
  const { text, parsed } = lessonOf(body);
  return checkAnswerReveals(parsed.lesson ? [parsed.lesson] : [], () => text).map(formatDiagnostic);
}

describe('an after block holds back the prose that tells a quiz answer', () => {
  it('gates the prose after it up to the next heading, and no further', () => {
    const { parsed } = lessonOf(
      `${QUIZ}\n\`\`\`after\nquiz: predict\n\`\`\`\n\nA decides on 9.848 s.\n\nStill waiting.\n\n## Next\n\nOpen to all.\n`,
    );
    expect(parsed.diagnostics).toEqual([]);
    const prose = parsed.lesson!.blocks.filter((b) => b.kind === 'prose');
    expect(prose.map((b) => b.kind === 'prose' && [b.after, b.nodes.map((n) => n.type)])).toEqual([
      ['predict', ['paragraph', 'paragraph']],
      [undefined, ['heading', 'paragraph']],
    ]);
  });

  it('holds back a player in its section too, so stepping cannot show the answer first', () => {
    const scenario = `\`\`\`scenario\nid: run\ntitle: A run\nclients:\n  - { id: A, recipe: lease-with-token, ttl: 10s, work: 1s }\nresource: { id: espresso }\n\`\`\`\n`;
    const { parsed } = lessonOf(
      `${QUIZ}\n\`\`\`after\nquiz: predict\n\`\`\`\n\n${scenario}\nWhat it showed.\n\n## Next\n\n${scenario.replace('id: run', 'id: again')}`,
    );
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.lesson!.blocks.map((b) => [b.kind, b.after])).toEqual([
      ['quiz', undefined],
      ['scenario', 'predict'],
      ['prose', 'predict'],
      ['prose', undefined],
      ['scenario', undefined],
    ]);
  });

  it('names a quiz that is not above it at its line, with the quizzes that are', () => {
    const { parsed } = lessonOf(`${QUIZ}\n\`\`\`after\nquiz: predcit\n\`\`\`\n\nText.\n`);
    expect(parsed.diagnostics.map(formatDiagnostic)).toEqual([
      "lessons/01-reveal.md:20:1: after: there is no quiz 'predcit' before this block (name a quiz above it: predict)",
    ]);
  });
});

describe('lessons:check finds prose that states a quiz answer before the learner commits', () => {
  it('reports the number only the right option has, at its place', () => {
    expect(problems(`${QUIZ}\nA decides on 10 000 ms minus a little: 9.848 s in all.\n`)).toEqual([
      "lessons/01-reveal.md:19:40: the prose after quiz 'predict' states its answer (9 848) before the learner commits (move it into the quiz's explanations, a fill-in's model answer, or after a heading further on)",
    ]);
  });

  it('says nothing of prose behind an after block, after a heading, or of numbers a wrong option has too', () => {
    expect(problems(`${QUIZ}\n\`\`\`after\nquiz: predict\n\`\`\`\n\nA decides on 9.848 s.\n`)).toEqual([]);
    expect(problems(`${QUIZ}\nThe TTL was 10 000 ms.\n\n## Later\n\n9 848 ms, as you found.\n`)).toEqual([]);
  });
});
