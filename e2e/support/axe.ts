import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** The WCAG 2.2 A and AA rules: what every page of Lockstep must pass. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * axe-core's violations on the page (or inside `include`), each as `rule: where`. The same rules
 * as AxeBuilder's default run, run in the page itself (`axe.run`, legacy mode) and reporting
 * violations only: the default runs each frame's part, then opens a blank page to merge them,
 * sending every passing node across (3 MB for a lesson with eight players), which made a scan of
 * a lesson take 14 s instead of 5. Lockstep has no frames to merge. `rules` runs just those;
 * `needsReview` also reports what axe could not decide (its "incomplete" results), as a person
 * reviewing by hand would have to.
 */
export async function axeViolations(
  page: Page,
  {
    include,
    tags = WCAG_AA,
    rules,
    needsReview = false,
  }: { include?: string; tags?: string[] | 'every rule'; rules?: string[]; needsReview?: boolean } = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: needsReview ? ['violations', 'incomplete'] : ['violations'] });
  if (include) builder = builder.include(include);
  // Named rules run alone, experimental ones included (axe runs those only when named).
  if (rules) builder = builder.withRules(rules);
  else if (tags !== 'every rule') builder = builder.withTags(tags);
  const { violations, incomplete } = await builder.analyze();
  const listed = (v: (typeof violations)[number]) =>
    `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`;
  return [...violations.map(listed), ...(needsReview ? incomplete.map((v) => `needs review: ${listed(v)}`) : [])];
}
