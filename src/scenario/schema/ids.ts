import { z } from 'zod';

/**
 * Names JavaScript gives every object: an id spelt like one would read (or, for `__proto__`,
 * replace) an object's machinery wherever ids key a table, so authors are told to pick another.
 */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf']);

const reserved = (input: unknown) =>
  `'${String(input)}' is a reserved name (JavaScript uses it inside every object); pick another id`;

/** An id with a pattern, refusing reserved names by name rather than by the pattern's rule. */
function idOf(pattern: RegExp, rule: string) {
  return z
    .string()
    .regex(pattern, { error: (issue) => (RESERVED.has(String(issue.input)) ? reserved(issue.input) : rule) })
    .refine((v) => !RESERVED.has(v) || !pattern.test(v), { error: (issue) => reserved(issue.input) });
}

/** The id of an actor, a scenario or a service: it names a lane and a share-link target. */
export const actorId = idOf(/^[A-Za-z][\w-]*$/, 'use letters, digits, - and _ (starting with a letter)');

/** The id of a block, an option, an item or a field: it keys the learner's saved answers. */
export const blockId = idOf(/^[A-Za-z0-9][\w-]*$/, 'use letters, digits, - and _');
