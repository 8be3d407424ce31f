// **Link features** ∏L as the relevance rules read them (thesis §3): lower-cased attributes, text tokens and URL parts.
import type { LinkFeatures } from '../links/types.ts';
import { tokenize } from './concepts.ts';
import { parseUrlParts, type UrlParts } from './url-parts.ts';

/** The thesis's ∏L for one link, derived once from `LinkFeatures` and shared by every rule. */
export interface DerivedLinkFeatures {
  url: string;
  /** `type` attribute, lower case, trimmed. */
  type: string;
  /** `title` attribute, lower case. */
  title: string;
  /** Anchor text, lower case. */
  anchor: string;
  /** Surrounding text, lower case. */
  context: string;
  /** Word tokens of each text feature and of the URL path (see `tokenize`). */
  tokens: { type: string[]; title: string[]; anchor: string[]; context: string[]; path: string[] };
  /** Host, path segments, query, extension. */
  parts: UrlParts;
}

/** Derives ∏L from an extracted link. Pure. */
export function deriveLinkFeatures(link: LinkFeatures): DerivedLinkFeatures {
  const parts = parseUrlParts(link.url);
  return {
    url: link.url,
    type: link.type.trim().toLowerCase(),
    title: link.title.toLowerCase(),
    anchor: link.anchor.toLowerCase(),
    context: link.context.toLowerCase(),
    tokens: {
      type: tokenize(link.type),
      title: tokenize(link.title),
      anchor: tokenize(link.anchor),
      context: tokenize(link.context),
      path: parts.segments.flatMap((segment) => tokenize(safeDecode(segment))),
    },
    parts,
  };
}

/** A link with only a URL (seeds, sitemap entries): empty text features. */
export function linkFromUrl(url: string, tag: LinkFeatures['tag'] = 'a'): LinkFeatures {
  return { url, tag, anchor: '', title: '', type: '', rel: '', context: '' };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
