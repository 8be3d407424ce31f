// Types of links extracted from documents: the thesis's link features ∏L (thesis §3), and extractLinks' options and result.
import type { NormalizeMode } from './normalize-url.ts';
import type { PageScan } from './page-scan.ts';

/**
 * Tags a link may come from. `rdf` marks an IRI found inside an RDF document (thesis §8.2); `variant` the HTML
 * variant of a content-negotiated resource.
 */
export type LinkTag = 'a' | 'link' | 'area' | 'frame' | 'iframe' | 'rdf' | 'sitemap' | 'header' | 'seed' | 'variant';

/** One outgoing link with the features the relevance functions read (thesis §3). */
export interface LinkFeatures {
  /** Absolute, normalised URL (see `normalizeUrl`). */
  url: string;
  tag: LinkTag;
  /** Anchor text, whitespace-collapsed ('' when none). */
  anchor: string;
  /** `title` attribute ('' when none). */
  title: string;
  /** `type` attribute, e.g. `application/rdf+xml` ('' when none). */
  type: string;
  /** `rel` attribute, e.g. `alternate` ('' when none). For `tag: 'rdf'` the predicate IRI. */
  rel: string;
  /** Surrounding text: ±20 words of the enclosing block around the link. */
  context: string;
  /**
   * DOM context (HTML links only): the innermost enclosing block element and the link element, each as
   * `tag.class1.class2`, e.g. `li.resource-item a.btn.btn-primary`; absent for links not from HTML.
   */
  domPath?: string;
}

/** Something that looked like a link but is not a crawlable URL (BeeBot's Bad Links table). */
export interface BadLink {
  href: string;
  /** The page it was found on. */
  page: string;
  reason: string;
}

/** Options of `extractLinks`. */
export interface ExtractLinksOptions {
  /** Keep only the first N distinct links of the page (thesis §11: the first 500). Default: 500. */
  maxLinks?: number;
  /** URL normalisation mode (see `NormalizeMode`). Default: `standard`. */
  normalize?: NormalizeMode;
  /** Words of surrounding text kept on each side of a link. Default: 20. */
  contextWords?: number;
  /** Characters of visible text returned in `text`. Default: 100,000. */
  maxTextChars?: number;
  /** Longest URL accepted. Default: 2048 (see `normalizeUrl`). */
  maxUrlLength?: number;
  /**
   * A page scan to fill in the same tokenizer pass (the embedded-RDF reader then does not tokenise the page
   * again). The links are the same with or without it; with it, the pass reads on after `maxLinks` links and the
   * text are complete, collecting only the scan, until the end of the page. Default: none.
   */
  scan?: PageScan;
  /**
   * Distinct links past `maxLinks` counted in `beyond` (the pass reads on for them, then stops). Default:
   * 10,000 (`BEYOND_COUNTED` of extract-links.ts).
   */
  maxBeyond?: number;
}

/** What `extractLinks` read of a page. */
export interface ExtractedLinks {
  /** Distinct links in document order, at most `maxLinks`; the first occurrence's features are kept. */
  links: LinkFeatures[];
  /**
   * Distinct crawlable links past `maxLinks`, not in `links` (counted up to `maxBeyond`). Once the links kept and the
   * text are complete and no scan needs the tokenizer, the rest of the page is read by `scanHrefs`, which finds the
   * same links in the forms sites write (href-scan.ts says what it does not tell apart).
   */
  beyond: number;
  /** Hrefs that are not crawlable URLs (`javascript:`, `mailto:`, malformed, too long), at most `maxLinks`. */
  bad: BadLink[];
  /** The URL relative links were resolved against (`<base href>` or the page URL). */
  baseUrl: string;
  /** Visible text (no script/style), words separated by spaces, blocks by newlines, capped at `maxTextChars`. */
  text: string;
  /** The first `<title>`, whitespace-collapsed ('' when none). */
  title: string;
}
