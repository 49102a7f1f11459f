import { describe, expect, it } from 'vitest';
import { embedHref, parseRoute } from './route';

describe('parseRoute', () => {
  it('treats an empty hash and #/ as the course map', () => {
    expect(parseRoute('')).toEqual({ name: 'home' });
    expect(parseRoute('#/')).toEqual({ name: 'home' });
  });

  it('reads a lesson slug and its query (share links carry a seed)', () => {
    const route = parseRoute('#/lesson/paused-barista?seed=7');
    expect(route.name).toBe('lesson');
    expect(route.name === 'lesson' && [route.slug, route.params.get('seed')]).toEqual(['paused-barista', '7']);
  });

  it('opens the glossary, at a term when one is named', () => {
    expect(parseRoute('#/glossary')).toEqual({ name: 'glossary', term: undefined });
    expect(parseRoute('#/glossary/single-writer')).toEqual({ name: 'glossary', term: 'single-writer' });
    expect(parseRoute('#/glossary/Not_A_Term')).toEqual({ name: 'not-found', path: '/glossary/Not_A_Term' });
  });

  it('opens the grading page', () => {
    expect(parseRoute('#/grade')).toEqual({ name: 'grade' });
    expect(parseRoute('#/grade/')).toEqual({ name: 'grade' });
    expect(parseRoute('#/recorded')).toEqual({ name: 'recorded' });
  });

  it('opens the workbench, with a shared scenario when the link carries one', () => {
    const route = parseRoute('#/workbench?run=abc');
    expect(route.name === 'workbench' && route.params.get('run')).toBe('abc');
    expect(parseRoute('#/workbench/').name).toBe('workbench');
  });

  it('reports anything else as not found', () => {
    expect(parseRoute('#/lessons')).toEqual({ name: 'not-found', path: '/lessons' });
    expect(parseRoute('#/lesson/Bad_Slug')).toEqual({ name: 'not-found', path: '/lesson/Bad_Slug' });
  });
});

describe('the embed route', () => {
  it('names a lesson and one of its scenarios, and whether the question before it comes along', () => {
    expect(parseRoute('#/embed/paused-barista/paused-barista')).toEqual({
      name: 'embed',
      slug: 'paused-barista',
      scenario: 'paused-barista',
      withQuiz: false,
    });
    expect(parseRoute(embedHref('fencing-tokens', 'stale-first', true))).toEqual({
      name: 'embed',
      slug: 'fencing-tokens',
      scenario: 'stale-first',
      withQuiz: true,
    });
    expect(parseRoute('#/embed/paused-barista')).toEqual({ name: 'not-found', path: '/embed/paused-barista' });
  });
});
