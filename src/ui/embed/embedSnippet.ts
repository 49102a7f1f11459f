import { embedHref } from '../routing/route';

/** The message an embedded player posts to its host page whenever its height changes. */
export interface EmbedHeightMessage {
  lockstepEmbedHeight: number;
}

/**
 * The HTML an instructor pastes into a page or an LMS to embed one lesson player: an iframe of
 * the player alone, and a one-line script that sizes the iframe to the player as it grows (an
 * LMS that strips scripts keeps the iframe at its starting height, which fits a player).
 *
 * @param pageUrl the lesson page's address (`location.href`), which gives the site's own address
 *   under whatever sub-path it is deployed.
 */
export function embedSnippet(
  pageUrl: string,
  slug: string,
  scenarioId: string,
  title: string,
  withQuiz: boolean,
): string {
  const site = pageUrl.split('#')[0]!;
  const src = `${site}${embedHref(slug, scenarioId, withQuiz)}`;
  const origin = new URL(site).origin;
  const iframe = `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(`Lockstep: ${title}`)}" width="100%" height="${withQuiz ? 1100 : 760}" style="border:0" loading="lazy"></iframe>`;
  const script = `<script>addEventListener('message',function(e){if(e.origin!=='${origin}'||!e.data||!e.data.lockstepEmbedHeight)return;document.querySelectorAll('iframe').forEach(function(f){if(f.contentWindow===e.source)f.style.height=e.data.lockstepEmbedHeight+'px'})})</script>`;
  return `${iframe}\n${script}`;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
