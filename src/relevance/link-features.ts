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
   * shows pa1 far below ex1 in support). Each list is computed when first read (most links' text is never
   * tokenised: see `mayHaveRdfConcept`).
   */
  readonly tokens: { readonly type: string[]; readonly title: string[]; readonly anchor: string[]; readonly context: string[]; readonly path: string[] };
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
    tokens: new LazyTokens(link, parts),
    parts,
  };
}

/**
 * The token lists of a link, each computed on first read and kept. A class (getters on the prototype) rather than an
 * object literal of getters: one small object per judged link instead of five closures and a getter map.
 */
class LazyTokens {
  readonly #link: LinkFeatures;
  readonly #parts: UrlParts;
  #type: string[] | undefined;
  #title: string[] | undefined;
  #anchor: string[] | undefined;
  #context: string[] | undefined;
  #path: string[] | undefined;

  constructor(link: LinkFeatures, parts: UrlParts) {
    this.#link = link;
    this.#parts = parts;
  }

  get type(): string[] {
    this.#type ??= tokenize(this.#link.type);
    return this.#type;
  }
  get title(): string[] {
    this.#title ??= tokenize(this.#link.title);
    return this.#title;
  }
  get anchor(): string[] {
    this.#anchor ??= tokenize(this.#link.anchor);
    return this.#anchor;
  }
  get context(): string[] {
    this.#context ??= tokenize(this.#link.context);
    return this.#context;
  }
  get path(): string[] {
    this.#path ??= pathTokens(this.#parts);
    return this.#path;
  }
}

/**
 * The lower-cased text every token of `pathTokens(parts)` is a substring of, or null when the path has percent escapes
 * (decoding may make letters of them). For a cheap "may a concept word occur?" look before tokenising.
 */
export function pathTextLower(parts: UrlParts): string | null {
  const text = parts.segments.join('/');
  return text.includes('%') ? null : text.toLowerCase();
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
