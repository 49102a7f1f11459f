import { isScalar, isSeq, LineCounter, parseDocument, Scalar, visit } from 'yaml';

/** A Lua script written inside the scenario, and where each of its lines sits in the YAML. */
export interface ScriptSource {
  /** The script as Redis receives it (the YAML string's value). */
  body: string;
  /**
   * The 1-based YAML line and column where each script line starts: `starts[0]` is line 1 of
   * the script (`user_script:1` in Redis's messages).
   */
  starts: { line: number; col: number }[];
}

/** Where `user_script:<n>` is in the YAML; past the last line, the script's last line. */
export function yamlPosition(script: ScriptSource, scriptLine: number): { line: number; col: number } {
  return script.starts[Math.min(Math.max(1, scriptLine), script.starts.length) - 1]!;
}

/** How many words come before the script in a command that carries one: `EVAL script …`, `SCRIPT LOAD script`. */
function scriptIndex(words: readonly unknown[]): number | null {
  const [first, second] = words.map((w) => (isScalar(w) ? String(w.value).toUpperCase() : ''));
  if (first === 'EVAL' || first === 'EVAL_RO') return 1;
  if (first === 'SCRIPT' && second === 'LOAD') return 2;
  return null;
}

/**
 * Every Lua script in a scenario's YAML: the script word of any sequence that is an `EVAL`
 * (or `EVAL_RO`, `SCRIPT LOAD`) command, whether a client's `redis:` step or a scheduled
 * `command`. Text the YAML parser cannot read yields the scripts it could still find.
 */
export function scriptSources(text: string): ScriptSource[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const out: ScriptSource[] = [];
  visit(doc, {
    Seq(_, seq) {
      if (!isSeq(seq)) return;
      const index = scriptIndex(seq.items);
      const word = index === null ? undefined : seq.items[index];
      if (!isScalar(word) || typeof word.value !== 'string' || !word.range) return;
      const offsets = lineStartOffsets(text, word);
      out.push({ body: word.value, starts: offsets.map((o) => lineCounter.linePos(o)) });
    },
  });
  return out;
}

/**
 * The source offset at which each line of a string scalar's value begins. A block literal
 * (`|`) keeps its lines as written; a flow scalar (plain or quoted) starts a new value line at
 * each `\n` escape (double quotes) and at each blank source line (YAML folds a single line
 * break into a space, so the value line goes on).
 */
function lineStartOffsets(text: string, scalar: Scalar): number[] {
  const [start, end] = scalar.range!;
  if (scalar.type === Scalar.BLOCK_LITERAL || scalar.type === Scalar.BLOCK_FOLDED)
    return blockLines(text, start, end, scalar.value as string);
  const quote = scalar.type === Scalar.QUOTE_DOUBLE ? '"' : scalar.type === Scalar.QUOTE_SINGLE ? "'" : null;
  const from = quote ? start + 1 : start;
  const to = quote ? end - 1 : end;
  const starts = [from];
  for (let i = from; i < to; i++) {
    const ch = text[i];
    if (quote === '"' && ch === '\\') {
      if (text[i + 1] === 'n') starts.push(i + 2);
      i++;
    } else if (ch === '\n') {
      // Folding: the blank lines after this break are the value's new lines.
      let j = i + 1;
      let breaks = 0;
      for (;;) {
        while (text[j] === ' ' || text[j] === '\t') j++;
        if (text[j] === '\r') j++;
        if (text[j] !== '\n') break;
        breaks++;
        j++;
      }
      for (let b = 0; b < breaks; b++) starts.push(j);
      i = j - 1;
    }
  }
  return starts;
}

/**
 * A block scalar's lines: the header (`|`, `|-`, `>`) ends its first source line, and each
 * later source line is one value line, indented by the block's indentation. (A folded block
 * joins lines; a script written that way has fewer value lines, and the first ones are used.)
 */
function blockLines(text: string, start: number, end: number, value: string): number[] {
  const starts: number[] = [];
  let i = text.indexOf('\n', start);
  const lines = value.split('\n').length;
  while (i !== -1 && i < end && starts.length < lines) {
    let j = i + 1;
    while (text[j] === ' ') j++;
    starts.push(j);
    i = text.indexOf('\n', i + 1);
  }
  return starts.length ? starts : [start];
}
