import { syntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { boundedLanguage } from './boundedLanguage';
import { boundsProblem } from './checkScenarioText';
import { yamlWithLua } from './luaInYaml';

const SHALLOW = 'id: x\nclients:\n  - { id: A, recipe: lease-with-token }\n';
const DEEP = `id: x\na: ${'['.repeat(5000)}`;

function editorState(doc: string): EditorState {
  return EditorState.create({
    doc,
    extensions: boundedLanguage(yamlWithLua(), (text) => !boundsProblem(text), doc),
  });
}

/** Whether the state parses its text as YAML (a language gives it a syntax tree over the text). */
function highlighted(state: EditorState): boolean {
  return syntaxTree(state).length > 0;
}

function replaced(state: EditorState, text: string): EditorState {
  return state.update({ changes: { from: 0, to: state.doc.length, insert: text } }).state;
}

describe('the scenario editor’s language, within the checks’ bounds', () => {
  it('parses a scenario that keeps the bounds', () => {
    expect(highlighted(editorState(SHALLOW))).toBe(true);
  });

  it('is off in the very transaction that pastes text nested past the bounds, and the paste is kept', () => {
    const pasted = replaced(editorState(SHALLOW), DEEP);
    expect(pasted.doc.toString()).toBe(DEEP);
    expect(highlighted(pasted)).toBe(false);
  });

  it('comes back once the text is fixed', () => {
    const fixed = replaced(replaced(editorState(SHALLOW), DEEP), SHALLOW);
    expect(highlighted(fixed)).toBe(true);
  });

  it('starts off for a text already past the bounds', () => {
    expect(highlighted(editorState(DEEP))).toBe(false);
  });

  it('leaves edits that keep the bounds alone', () => {
    const typed = editorState(SHALLOW).update({ changes: { from: SHALLOW.length, insert: 'seed: 3\n' } });
    expect(typed.effects).toEqual([]);
    expect(highlighted(typed.state)).toBe(true);
  });
});
