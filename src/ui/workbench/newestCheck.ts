/** One check's answer, with the text it was made for (a caller may get a newer text's answer). */
export interface Checked<R> {
  text: string;
  result: R;
}

/**
 * Wraps a check so that a fast typist never queues checks behind each other: one check runs at a
 * time, and while it runs only the newest text waits. Every caller still waiting when that text's
 * check starts gets its answer, named with its text; the editor shows an answer only for the
 * text it is showing, so an older caller's answer is never drawn on the wrong text.
 *
 * With it the editor can check on every keystroke (no pause in typing to wait for): an edit after
 * a pause is checked at once, and a burst costs at most one check more than its last keystroke.
 */
export function newestFirst<R>(check: (text: string) => Promise<R>): (text: string) => Promise<Checked<R>> {
  let running = false;
  let waiting: {
    text: string;
    callers: Array<{ resolve: (checked: Checked<R>) => void; reject: (error: unknown) => void }>;
  } | null = null;

  async function drain(): Promise<void> {
    running = true;
    while (waiting) {
      const { text, callers } = waiting;
      waiting = null;
      try {
        const result = await check(text);
        for (const caller of callers) caller.resolve({ text, result });
      } catch (error) {
        for (const caller of callers) caller.reject(error);
      }
    }
    running = false;
  }

  return (text) =>
    new Promise((resolve, reject) => {
      waiting = { text, callers: [...(waiting?.callers ?? []), { resolve, reject }] };
      if (!running) void drain();
    });
}
