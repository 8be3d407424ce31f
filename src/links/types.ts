// Types of links extracted from documents: the thesis's link features ∏L (thesis §3).

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
