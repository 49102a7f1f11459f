import { describe, expect, it } from 'vitest';
import { parseLesson } from './parse';

const FRONT = `---
slug: dash
title: Dashboard
course: fixtures
order: 1
readTime: 5
summary: A lesson with a dashboard.
---
`;

const SCENARIO = `id: herd
title: Two clients
clients:
  - { id: A, recipe: lease-with-token, ttl: 2s }
  - { id: B, recipe: lease-with-token, ttl: 2s }
resource: { id: espresso }
expect: { invariant: single-writer, outcome: holds }`;

const parse = (body: string, files: Record<string, string> = {}) =>
  parseLesson(`${FRONT}\n${body}\n`, 'lessons/01-dash.md', { readRef: (p) => files[p] });

describe('the dashboard block', () => {
  it('is a scenario block (checked and run like one) drawn as a dashboard, inline or by ref', () => {
    const inline = parse('```dashboard\n' + SCENARIO + '\n```');
    expect(inline.diagnostics).toEqual([]);
    const block = inline.lesson?.blocks.find((b) => b.kind === 'scenario');
    expect(block).toMatchObject({
      kind: 'scenario',
      id: 'herd',
      view: 'dashboard',
      scenario: { id: 'herd', expect: [{ invariant: 'single-writer', outcome: 'holds' }] },
    });

    const byRef = parse('```dashboard\nref: scenarios/herd.yaml\n```', { 'scenarios/herd.yaml': SCENARIO });
    expect(byRef.lesson?.blocks.find((b) => b.kind === 'scenario')).toMatchObject({
      view: 'dashboard',
      ref: 'scenarios/herd.yaml',
    });
  });

  it('leaves a plain scenario block without a view', () => {
    const plain = parse('```scenario\n' + SCENARIO + '\n```');
    expect(plain.lesson?.blocks.find((b) => b.kind === 'scenario')).not.toHaveProperty('view');
  });

  it('reports a broken scenario inside a dashboard block like any scenario block', () => {
    const broken = parse('```dashboard\nid: herd\ntitle: x\nclients: []\nresource: { id: espresso }\n```');
    expect(broken.diagnostics.length).toBeGreaterThan(0);
    expect(broken.lesson?.blocks.find((b) => b.kind === 'invalid')).toMatchObject({ lang: 'dashboard' });
  });
});
