import { Compartment, EditorState, type Extension, type TransactionSpec } from '@codemirror/state';
import { EditorView } from '@codemirror/view';

/** A language kept within bounds (see boundedLanguage), and the switch that brings it back. */
export interface BoundedLanguage {
  extension: Extension;
  /** The transaction that turns the language back on, once the text keeps the bounds again; null when none is due. */
  backOn(state: EditorState): TransactionSpec | null;
}

/**
 * A language (its highlighting, folding, bracket matching) that is on only while the text keeps
 * the bounds the checks keep: past them the text shows plain, and the Problems list says which
 * bound it broke.
 *
 * Lezer builds its syntax tree recursively, and the first slice of the parse runs inside the
 * transaction that changed the text. A paste of ten thousand `[` overflowed the stack there, so
 * the transaction threw and the paste was lost (on a busy page, where that slice ended deep in
 * the tree). So the language goes off in the very transaction that breaks a bound, before it
 * can parse. It comes back in a transaction of its own, after the one that fixed the text: a
 * transaction that adds a language first builds it on the text as it was before its changes
 * (CodeMirror's intermediate state), which would parse the deep text it is leaving.
 */
export function boundedLanguage(
  language: Extension,
  withinBounds: (text: string) => boolean,
  initialText: string,
): BoundedLanguage {
  const slot = new Compartment();
  const on = (state: EditorState) => slot.get(state) === language;
  const backOn = (state: EditorState) =>
    !on(state) && withinBounds(state.doc.toString()) ? { effects: slot.reconfigure(language) } : null;
  return {
    backOn,
    extension: [
      slot.of(withinBounds(initialText) ? language : []),
      EditorState.transactionExtender.of((tr) =>
        tr.docChanged && on(tr.startState) && !withinBounds(tr.newDoc.toString())
          ? { effects: slot.reconfigure([]) }
          : null,
      ),
      // A view may not be updated while it updates: the switch follows once this update is over.
      EditorView.updateListener.of((update) => {
        if (!update.docChanged || on(update.state)) return;
        const view = update.view;
        queueMicrotask(() => {
          const spec = view.dom.isConnected ? backOn(view.state) : null;
          if (spec) view.dispatch(spec);
        });
      }),
    ],
  };
}
