import { describe, expect, it } from 'vitest';
import { embedSnippet } from './embedSnippet';

describe('the embed snippet', () => {
  it('frames the player alone at the site’s own address, under its sub-path, titled for screen readers', () => {
    const snippet = embedSnippet(
      'https://example.edu/courses/lockstep/#/lesson/paused-barista?t=5',
      'paused-barista',
      'paused-barista',
      'The paused "barista"',
      false,
    );
    const [iframe, script] = snippet.split('\n');
    expect(iframe).toBe(
      '<iframe src="https://example.edu/courses/lockstep/#/embed/paused-barista/paused-barista" title="Lockstep: The paused &quot;barista&quot;" width="100%" height="760" style="border:0" loading="lazy"></iframe>',
    );
    // The sizing script trusts only messages from the site's own origin.
    expect(script).toContain("e.origin!=='https://example.edu'");
  });

  it('brings the question asked before the player when asked to, with room for it', () => {
    expect(
      embedSnippet('http://127.0.0.1:4173/lockstep/', 'fencing-tokens', 'stale-first', 'Stale first', true),
    ).toMatch(
      /^<iframe src="http:\/\/127\.0\.0\.1:4173\/lockstep\/#\/embed\/fencing-tokens\/stale-first\?quiz=before" .* height="1100"/,
    );
  });
});
