/**
 * A condition the code after it relies on. It is checked in every build, tests and the site
 * alike, as TigerBeetle does: a broken assumption stops the run at the line that made it, with
 * the values that broke it, instead of showing a learner a trace that is quietly wrong.
 * `message` is a function when building it would cost something. On a path every event takes,
 * test the condition with `if` and throw AssertionError from a function of its own instead: a
 * message closure there is an allocation per event.
 */
export function assert(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new AssertionError(typeof message === 'string' ? message : message());
}

/** A broken invariant of the simulator itself: a bug in Lockstep, never a learner's mistake. */
export class AssertionError extends Error {
  override name = 'AssertionError';
}
