import { z } from 'zod';

/**
 * A learner's answer to a workbench block, handed in as a file (or a link carrying the same
 * JSON): who, which lesson and block, and the recipe as they wrote it. What the learner's page
 * said of it (`claimed`) is kept only to be compared: the grader re-runs the recipe and grades
 * what it does, so an edited claim changes nothing but a note.
 */
export const SUBMISSION_KIND = 'lockstep-workbench-submission';

export const submissionSchema = z.strictObject({
  kind: z.literal(SUBMISSION_KIND),
  version: z.literal(1),
  /** The lesson's slug, and the workbench block's id in it. */
  lesson: z.string().min(1).max(200),
  block: z.string().min(1).max(200),
  learner: z.string().trim().min(1, 'a learner name').max(200),
  /** The scenario YAML from the learner's editor. */
  recipe: z.string().max(64_000),
  /** What the learner's page showed when they handed it in. */
  claimed: z.enum(['open', 'broken', 'checking', 'failing', 'fixed']),
});

export type Submission = z.output<typeof submissionSchema>;

/** The submission as the file holds it. */
export function submissionText(submission: Submission): string {
  return `${JSON.stringify(submission, null, 2)}\n`;
}

/** A file name that sorts by lesson and says whose it is: `clinic-plain-del--ada-lovelace.json`. */
export function submissionFileName(submission: Pick<Submission, 'lesson' | 'learner'>): string {
  const learner =
    submission.learner
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'learner';
  return `${submission.lesson}--${learner}.json`;
}

/** A submission read from a file's text, or what is wrong with it in words an instructor can act on. */
export function readSubmission(text: string): { ok: true; submission: Submission } | { ok: false; message: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      ok: false,
      message:
        'not a submission: the file is not JSON (a learner hands in the .json file the workbench’s Hand in button saves)',
    };
  }
  if (typeof json !== 'object' || json === null || (json as { kind?: unknown }).kind !== SUBMISSION_KIND) {
    return {
      ok: false,
      message: `not a submission: JSON without "kind": "${SUBMISSION_KIND}" (a learner hands in the .json file the workbench’s Hand in button saves)`,
    };
  }
  const parsed = submissionSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      message: `a damaged submission: ${issue.path.join('.') || 'the file'}: ${issue.message} (ask the learner to hand it in again)`,
    };
  }
  return { ok: true, submission: parsed.data };
}
