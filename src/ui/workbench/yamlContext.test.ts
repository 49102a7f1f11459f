import { describe, expect, it } from 'vitest';
import { cursorContext } from './yamlContext';

/** The context at the `|` in the text. */
function at(textWithBar: string) {
  const offset = textWithBar.indexOf('|');
  return cursorContext(textWithBar.replace('|', ''), offset);
}

const SCENARIO = `id: demo
clients:
  - id: A
    steps:
      - { redis: [SET, lock, '{value}', NX, PX, 3000] }
      - { wait: 5s }
  - id: B
    startAt: 4s
`;

describe('cursorContext', () => {
  it('finds a top-level key being typed', () => {
    expect(at('id: demo\nti|')).toMatchObject({ kind: 'key', path: [], siblings: { id: 'demo' } });
  });

  it('finds a key inside the second client of a block list, with its siblings', () => {
    expect(at(`${SCENARIO}    rec|`)).toMatchObject({
      kind: 'key',
      path: ['clients', 1],
      siblings: { id: 'B', startAt: '4s' },
    });
  });

  it('finds a value being typed after a key', () => {
    expect(at(`${SCENARIO}    recipe: lea|`)).toMatchObject({ kind: 'value', path: ['clients', 1, 'recipe'] });
  });

  it('finds a key inside a flow mapping in a step list', () => {
    expect(at(`${SCENARIO}    steps:\n      - { wait: 1s }\n      - { wr|`)).toMatchObject({
      kind: 'key',
      path: ['clients', 1, 'steps', 1],
    });
  });

  it('finds the Redis command word of a flow list', () => {
    const ctx = at(`${SCENARIO}    steps:\n      - { redis: [SE|`);
    expect(ctx).toMatchObject({ kind: 'item', path: ['clients', 1, 'steps', 0, 'redis', 0] });
  });

  it('finds a script step value with its do kind', () => {
    expect(at('script:\n  - at: 2s\n    do: pause\n    tar|')).toMatchObject({
      kind: 'key',
      path: ['script', 0],
      siblings: { at: '2s', do: 'pause' },
    });
    expect(at('script:\n  - { at: 2s, do: pa|')).toMatchObject({
      kind: 'value',
      path: ['script', 0, 'do'],
      siblings: { at: '2s' },
    });
  });

  it('accepts a list at the same column as its key', () => {
    expect(at('clients:\n- id: A\n  la|')).toMatchObject({ kind: 'key', path: ['clients', 0] });
  });

  it('offers nothing inside a comment', () => {
    expect(at('# a comment ti|')).toBeNull();
  });
});
