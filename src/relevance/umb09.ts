// **[Umb09] online association rules** predicting a link's document type from its URL (thesis §10, used by FC-R2).
import { pathTokens } from './link-features.ts';
import type { DocType } from './types.ts';
import type { UrlParts } from './url-parts.ts';

/** Which feature kind a rule came from, in the order rules are applied (thesis §10). */
export type Umb09FeatureKind = 'ext' | 'word' | 'host';

/** Rule names recorded on predictions, per feature kind. */
const UMB09_RULE_NAMES: Record<Umb09FeatureKind, string> = { ext: 'u-ext', word: 'u-word', host: 'u-host' };

/** The features of a URL (thesis §10): its extension, each path word (extension excluded), host combined with each path word. */
export function umb09Features(parts: UrlParts): { kind: Umb09FeatureKind; key: string }[] {
  const words = [...new Set(pathTokens(parts))];
  const features: { kind: Umb09FeatureKind; key: string }[] = [];
  // A URL without an extension has no extension feature (ours): otherwise "no extension" would always win
  // and the path words would never be consulted for extension-less Linked Data URIs.
  if (parts.extension !== null) features.push({ kind: 'ext', key: `e:${parts.extension}` });
  for (const word of words) features.push({ kind: 'word', key: `w:${word}` });
  for (const word of words) features.push({ kind: 'host', key: `h:${parts.host} ${word}` });
  return features;
}

/** The verdict of the knowledge base on a link. */
export interface Umb09Prediction {
  /** conf(feature ⇒ rdf) of the first applicable rule; 0 when no rule applied. */
  relevance: number;
  /** conf(feature ⇒ html) of that rule; 0 when none. */
  htmlConfidence: number;
  /** Rule applied (`u-ext`, `u-word`, `u-host`), null when the knowledge base knows none of the features. */
  rule: string | null;
}

const TYPES: readonly DocType[] = ['rdf', 'html', 'other'];
type Counts = [rdf: number, html: number, other: number];

/**
 * The knowledge base: for every feature a, #a and #(a ∩ type). sup(x) = #x / #total, conf(a ⇒ b) = sup(a ∩ b) /
 * sup(a) = #(a ∩ b) / #a (thesis §10). Updated after every fetched document with its real type.
 */
export class Umb09KnowledgeBase {
  #total = 0;
  readonly #counts = new Map<string, Counts>();

  /** Documents observed. */
  get total(): number {
    return this.#total;
  }

  /** Learns from one fetched document: every feature of its URL gets `feature ⇒ type`. */
  observe(parts: UrlParts, type: DocType): void {
    this.#total++;
    const index = TYPES.indexOf(type);
    for (const { key } of umb09Features(parts)) {
      let counts = this.#counts.get(key);
      if (counts === undefined) this.#counts.set(key, (counts = [0, 0, 0]));
      counts[index]!++;
    }
  }

  /** sup(feature) = #feature / #total (0 when nothing was observed). */
  support(key: string): number {
    const counts = this.#counts.get(key);
    return counts === undefined || this.#total === 0 ? 0 : sum(counts) / this.#total;
  }

  /** conf(feature ⇒ type) = #(feature ∩ type) / #feature; null when the feature is unknown. */
  confidence(key: string, type: DocType): number | null {
    const counts = this.#counts.get(key);
    if (counts === undefined) return null;
    return counts[TYPES.indexOf(type)]! / sum(counts);
  }

  /**
   * Applies the rules on the extension, then the path words, then host+word, in that order; the first feature
   * the knowledge base knows gives the link's relevance conf(feature ⇒ rdf) (thesis §10).
   */
  predict(parts: UrlParts): Umb09Prediction {
    for (const { kind, key } of umb09Features(parts)) {
      const relevance = this.confidence(key, 'rdf');
      if (relevance === null) continue;
      return { relevance, htmlConfidence: this.confidence(key, 'html') ?? 0, rule: UMB09_RULE_NAMES[kind] };
    }
    return { relevance: 0, htmlConfidence: 0, rule: null };
  }

  toJSON(): { total: number; counts: [string, Counts][] } {
    return { total: this.#total, counts: [...this.#counts] };
  }

  static fromJSON(state: unknown): Umb09KnowledgeBase {
    const kb = new Umb09KnowledgeBase();
    const s = state as { total?: unknown; counts?: unknown } | null;
    if (s && typeof s.total === 'number' && Array.isArray(s.counts)) {
      kb.#total = s.total;
      for (const entry of s.counts) {
        if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) continue;
        const [r, h, o] = entry[1] as unknown[];
        kb.#counts.set(entry[0], [Number(r) || 0, Number(h) || 0, Number(o) || 0]);
      }
    }
    return kb;
  }
}

function sum(counts: Counts): number {
  return counts[0] + counts[1] + counts[2];
}
