import { syntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { boundedLanguage, type BoundedLanguage } from './boundedLanguage';
import { boundsProblem } from './checkScenarioText';
import { yamlWithLua } from './luaInYaml';

const SHALLOW = 'id: x\nclients:\n  - { id: A, recipe: lease-with-token }\n';
const DEEP = `id: x\na: ${'['.repeat(5000)}`;

function editor(doc: string): { state: EditorState; bounded: BoundedLanguage } {
  const bounded = boundedLanguage(yamlWithLua(), (text) => !boundsProblem(text), doc);
  return { state: EditorState.create({ doc, extensions: bounded.extension }), bounded };
}

/** Whether the state parses its text as YAML (a language gives it a syntax tree over the text). */
function highlighted(state: EditorState): boolean {
  return syntaxTree(state).length > 0;
}

function replace(state: EditorState, text: string) {
  return state.update({ changes: { from: 0, to: state.doc.length, insert: text } });
}

describe('the scenario editor’s language, within the checks’ bounds', () => {
  it('parses a scenario that keeps the bounds, and has nothing to switch', () => {
    const { state, bounded } = editor(SHALLOW);
    expect(highlighted(state)).toBe(true);
    expect(bounded.backOn(state)).toBeNull();
  });

  it('is off in the very transaction that pastes text nested past the bounds, and the paste is kept', () => {
    const pasted = replace(editor(SHALLOW).state, DEEP).state;
    expect(pasted.doc.toString()).toBe(DEEP);
    expect(highlighted(pasted)).toBe(false);
  });

  it('comes back in a transaction of its own once the text is fixed, never in the one leaving the deep text', () => {
    const { state, bounded } = editor(SHALLOW);
    const deep = replace(state, DEEP).state;
    expect(bounded.backOn(deep)).toBeNull();
    // Adding the language in this transaction would build it on the deep text first.
    const fixing = replace(deep, SHALLOW);
    expect(fixing.effects).toEqual([]);
    const fixed = fixing.state;
    expect(highlighted(fixed)).toBe(false);
    const back = fixed.update(bounded.backOn(fixed)!).state;
    expect(highlighted(back)).toBe(true);
    expect(bounded.backOn(back)).toBeNull();
  });

  it('starts off for a text already past the bounds', () => {
    expect(highlighted(editor(DEEP).state)).toBe(false);
  });

  it('leaves edits that keep the bounds alone', () => {
    const typed = editor(SHALLOW).state.update({ changes: { from: SHALLOW.length, insert: 'seed: 3\n' } });
    expect(typed.effects).toEqual([]);
    expect(highlighted(typed.state)).toBe(true);
  });
});
