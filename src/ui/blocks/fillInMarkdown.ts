import type { FillInSpec } from '../../lessons/blocks/fillIn';

/** The learner's fill-in answers as a Markdown document they can keep (e.g. a post-incident report). */
export function fillInMarkdown(spec: FillInSpec, lessonTitle: string, answers: Record<string, string>): string {
  const sections = spec.fields.map((f) => `## ${f.label}\n\n${(answers[f.id] ?? '').trim() || '_(not answered)_'}\n`);
  return `# ${spec.title}\n\n_From the Lockstep lesson "${lessonTitle}"._\n\n${sections.join('\n')}`;
}
