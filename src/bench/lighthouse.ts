import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

/** One page Lighthouse scores, by the route the learner opens. */
export interface ScoredPage {
  name: string;
  /** The hash route, e.g. `#/lesson/paused-barista` ('' for the home page). */
  route: string;
}

export interface PageScores {
  name: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  totalBlockingTimeMs: number;
  mainThreadWorkMs: number;
  /**
   * Lighthouse's measure of the machine's CPU speed, taken as it loads the page: what the
   * figures above were measured on (its documentation puts a high-end desktop at 1,500 and up).
   */
  benchmarkIndex: number;
}

/**
 * Lighthouse 12 with its mobile defaults (a throttled mid-range phone) on each page of a served
 * build, in Debian's Chromium. Scores are 0–100 as Lighthouse's report shows them.
 */
export async function lighthouseScores(siteUrl: string, pages: readonly ScoredPage[]): Promise<PageScores[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const scores: PageScores[] = [];
    for (const page of pages) {
      const result = await lighthouse(`${siteUrl}/${page.route}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      if (result === undefined) throw new Error(`Lighthouse returned nothing for ${page.name}`);
      const { categories, audits } = result.lhr;
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      scores.push({
        name: page.name,
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        totalBlockingTimeMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN),
        mainThreadWorkMs: Math.round(audits['mainthread-work-breakdown']?.numericValue ?? NaN),
        benchmarkIndex: Math.round(result.lhr.environment.benchmarkIndex),
      });
    }
    return scores;
  } finally {
    await chrome.kill();
  }
}
