// Types shared by the relevance functions and the crawl strategies (thesis §2, §6, §10).
import type { LinkFeatures } from '../links/types.ts';

/** Document classes (thesis §2): RDF, RDF parent (HTML linking RDF), other HTML, anything else. */
export type Label = 'R' | 'HR' | 'H' | 'N';

/** What a fetched document really is, from its bytes (thesis §7 step 3). */
export type DocType = 'rdf' | 'html' | 'other';

/** A strategy's verdict on one link, before fetching (thesis §6). */
export interface Judgement {
  label: Label;
  /** The rules that fired, e.g. `['ex1', 'pa1']` or `['r1']` (needed for thesis §9 rule metrics). */
  rules: string[];
  /** Frontier priority: lower is more urgent (thesis: R→1, HR→2, H→3). `null` means drop the link. */
  priority: number | null;
}

/** Where a link was found. */
export interface LinkSource {
  /** Final URL of the page or RDF document the link was found on. */
  url: string;
  depth: number;
  /** `rdf` when the link is an IRI inside an RDF document (thesis §8.2, labelled by extension alone). */
  type: 'html' | 'rdf';
}

/** A queued link as `Strategy.reprioritise` sees it when its turn comes (label, parent and depth absent for seeds). */
export interface QueuedEntry {
  url: string;
  priority: number;
  rules: readonly string[];
  label?: Label | null;
  parent?: string | null;
  depth?: number;
}

/** What the crawl tells a strategy after a document was fetched and classified (the learning step, thesis §5). */
export interface FetchedDocument {
  url: string;
  finalUrl: string;
  /** The page the link was found on (null for seeds). */
  parent: string | null;
  /** HTTP status after redirects, null when no response. */
  status: number | null;
  /** Detected type when the body was read; null when not read (skipped, error). */
  type: DocType | null;
  contentType: string | null;
  /** The prediction made when the link was queued (null for seeds). */
  label: Label | null;
  rules: string[];
}

/** A fetched page as a strategy may observe it (for strategies that learn from text and the link graph). */
export interface ObservedPage {
  url: string;
  depth: number;
  type: DocType;
  /** Visible text (capped), '' for RDF documents. */
  text: string;
  /** The links kept from it (after NF and scope), in page order. */
  links: readonly LinkFeatures[];
}

/**
 * A crawl strategy: decides link priority (pure, given its learned state) and learns from fetched documents.
 * Learned state must round-trip through `snapshot()`/`restore()` (JSON-serialisable) so a resumed crawl
 * continues with what it had learned.
 */
export interface Strategy {
  readonly name: string;
  /** Priority of seeds (the most urgent). */
  readonly seedPriority: number;
  judge(link: LinkFeatures, source: LinkSource): Judgement;
  /**
   * Optional: the priority `judge(link, source)` gives, for a strategy whose priority does not depend on the label it
   * computes (breadth-first: the depth). The crawl asks it first for a link the frontier will leave as it is whatever
   * its label (the frontier's `ignores`), and judges only the others: the label of such a link is never stored.
   */
  priorityOf?(link: LinkFeatures, source: LinkSource): number | null;
  /**
   * Whether learning an RDF parent (C_HR, thesis §5) can make `judge` rank an already queued H link more urgent,
   * so the crawl should keep queued H links indexed and judge them again (FC-R+HR and its kin). Absent: never.
   */
  readonly rejudgesOnLearn?: boolean;
  /**
   * With `rejudgesOnLearn`: a queued link made more urgent stays a candidate and may be made more urgent again by
   * later learning (estimates that keep changing). Absent: an upgraded link is judged again no more.
   */
  readonly rejudgesRepeatedly?: boolean;
  /**
   * Whether the crawl should offer the strategy, after an RDF document reached by content negotiation (a 303), the
   * resource's HTML variant as a link to judge (`tag: 'variant'`). Absent: never.
   */
  readonly followsHtmlVariants?: boolean;
  /**
   * Whether the strategy learns itself where fetching yields nothing, counting RDF found several levels below a page
   * (the yield strategy), so the per-pattern wrapper (`withPatternYield`, which counts RDF documents and
   * their parents only, and would send a listing of RDF parents back) is not applied. Absent: it is.
   */
  readonly learnsBarren?: boolean;
  /**
   * Optional: whether a queued link about to be fetched should wait after all, given what was learned since it was
   * queued; returns its new (larger) priority, or null to fetch it now. Each entry is asked once (its rules then
   * hold `barren`). Used by {@link withPatternYield} and the yield strategy.
   */
  reprioritise?(entry: QueuedEntry): number | null;
  learn(doc: FetchedDocument): void;
  /**
   * Optional: sees every fetched HTML page (and RDF document) before its links are judged. State learned here is
   * not replayable from records, so it must be in `snapshot()`; the crawl saves snapshots periodically.
   */
  observePage?(page: ObservedPage): void;
  snapshot(): unknown;
  restore(state: unknown): void;
}
