// **Link clusters**: the keys a link is learned by in `LinkYield` (its style, URL template and page's template) and the
// six clusters they make, from general to specific. Pure.
import type { LinkFeatures } from '../links/types.ts';
import { isHtmlVariant } from '../links/html-variant.ts';
import { urlTemplate } from '../links/url-template.ts';

/** The cluster keys of one link, from what is known before fetching it. */
export interface LinkKeys {
  /** How the link is written: tag, rel, type, anchor shape and DOM context (`a||| go to resource|li.item a.btn`). */
  readonly style: string;
  /** URL template of the link (`urlTemplate`). */
  readonly target: string;
  /** URL template of the page it was found on ('' for seeds). */
  readonly parent: string;
}

/** Anchors of more words than this are clustered by their length, not their text. */
const FORMAT_ANCHOR_MAX_WORDS = 3;

/** The anchor as a cluster feature: short digit-free anchors as they are ("rdf", "personal profile"), others by length. */
export function anchorShape(anchor: string): string {
  const a = anchor.toLowerCase().trim();
  if (a === '') return '';
  const words = a.split(/\s+/).length;
  if (a.length <= 2) return '#c';
  if (/\d/.test(a) || words > FORMAT_ANCHOR_MAX_WORDS || a.length > 30) return `#w${Math.min(words, 5)}`;
  return a;
}

/** The URL template a link or page is clustered by; a resource's HTML variant apart from the resource (`#html`). */
export function templateKey(url: string): string {
  return isHtmlVariant(url) ? `${urlTemplate(url)}#html` : urlTemplate(url);
}

/** Cluster keys of a link found on page `sourceUrl` (null for seeds). */
export function linkKeys(link: LinkFeatures, sourceUrl: string | null): LinkKeys {
  const style = [link.tag, link.rel.toLowerCase(), link.type.toLowerCase(), anchorShape(link.anchor), link.domPath ?? ''].join('|');
  return { style, target: templateKey(link.url), parent: sourceUrl === null ? '' : templateKey(sourceUrl) };
}

/**
 * A coarser template: the URL template with its first path segment generalised too (`/jamendo/artist/{x}` and
 * `/musicbrainz/artist/{x}` alike), so what one section of a site taught carries over to its sibling sections.
 */
export function coarseTemplate(template: string): string {
  return template.replace(/^([^/]*\/)[^/?]+(\/[^?]*)/, '$1{x}$2');
}

/** Cluster ids of keys objects already seen: a queued link is estimated again at every re-judging. */
const IDS = new WeakMap<LinkKeys, readonly string[]>();

/**
 * The six clusters a link belongs to, from general to specific (the shrinkage cascade's order); the third is its
 * URL template's (`t …`). Made once per keys object: the same strings then also keep their hash for the Map lookups
 * (building six strings and hashing them anew took a third of a yield crawl's re-judging).
 */
export function clusterIds(k: LinkKeys): readonly string[] {
  let ids = IDS.get(k);
  if (ids === undefined) {
    ids = [`s ${k.style}`, `c ${coarseTemplate(k.target)}`, `t ${k.target}`, `ps ${k.parent} ${k.style}`, `pt ${k.parent} ${k.target}`, `st ${k.style} ${k.target}`];
    IDS.set(k, ids);
  }
  return ids;
}
