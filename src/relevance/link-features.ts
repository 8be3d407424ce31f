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
  /**
   * Word tokens of each text feature and of the URL path (see `tokenize`). The path's tokens leave out the file
   * extension, which is `ex1`'s business: otherwise every `.rdf` link would fire `pa1` too (the thesis's Figure 4-1
   * shows pa1 far below ex1 in support).
   */
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
      path: pathTokens(parts),
    },
    parts,
  };
}

/** A link with only a URL (seeds, sitemap entries): empty text features. */
export function linkFromUrl(url: string, tag: LinkFeatures['tag'] = 'a'): LinkFeatures {
  return { url, tag, anchor: '', title: '', type: '', rel: '', context: '' };
}

/** Words of the URL path, file extension excluded. */
export function pathTokens(parts: UrlParts): string[] {
  const segments = [...parts.segments];
  if (parts.extension !== null && segments.length > 0) {
    const last = segments.pop()!;
    segments.push(last.slice(0, last.length - parts.extension.length - 1));
  }
  return segments.flatMap((segment) => tokenize(safeDecode(segment)));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
