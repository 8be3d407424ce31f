// Test helpers: hand-made links and sources.
import type { LinkFeatures } from '../../src/links/types.ts';
import type { LinkSource } from '../../src/relevance/types.ts';

/** A link with only the given features set. */
export function link(url: string, features: Partial<Omit<LinkFeatures, 'url'>> = {}): LinkFeatures {
  return { url, tag: 'a', anchor: '', title: '', type: '', rel: '', context: '', ...features };
}

export const HTML_SOURCE: LinkSource = { url: 'http://ex.org/', depth: 0, type: 'html' };

export function htmlSource(url: string, depth = 0): LinkSource {
  return { url, depth, type: 'html' };
}

export function rdfSource(url: string, depth = 1): LinkSource {
  return { url, depth, type: 'rdf' };
}
