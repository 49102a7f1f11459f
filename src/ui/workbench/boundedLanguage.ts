import { Compartment, EditorState, type Extension } from '@codemirror/state';

/**
 * A language (its highlighting, folding, bracket matching) that is on only while the text keeps
 * the bounds the checks keep: past them the text shows plain, and the Problems list says which
 * bound it broke.
 *
 * Lezer builds its syntax tree recursively, and the first slice of the parse runs inside the
 * transaction that changed the text. A paste of ten thousand `[` overflowed the stack there, so
 * the transaction threw and the paste was lost, whatever came after it in the editor too. The
 * language is switched off in the same transaction that breaks a bound, before it can parse.
 */
export function boundedLanguage(
  language: Extension,
  withinBounds: (text: string) => boolean,
  initialText: string,
): Extension {
  const slot = new Compartment();
  const on = (state: EditorState) => slot.get(state) === language;
  return [
    slot.of(withinBounds(initialText) ? language : []),
    EditorState.transactionExtender.of((tr) => {
      if (!tr.docChanged) return null;
      const wanted = withinBounds(tr.newDoc.toString());
      return wanted === on(tr.startState) ? null : { effects: slot.reconfigure(wanted ? language : []) };
    }),
  ];
}
