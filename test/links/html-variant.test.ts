// HTML variants of content-negotiated resources: marking, recognising, finding the resource.
import { describe, expect, it } from 'vitest';
import { HTML_VARIANT_FRAGMENT, htmlVariantLink, htmlVariantOf, isHtmlVariant, negotiatedResource } from '../../src/links/html-variant.ts';

describe('html variants', () => {
  it('marks a resource URI with a fragment (never sent), replacing its own', () => {
    expect(htmlVariantOf('http://s.org/ns/v/Agent')).toBe(`http://s.org/ns/v/Agent${HTML_VARIANT_FRAGMENT}`);
    expect(htmlVariantOf('http://s.org/ns/v#Agent')).toBe(`http://s.org/ns/v${HTML_VARIANT_FRAGMENT}`);
    expect(isHtmlVariant(htmlVariantOf('http://s.org/a'))).toBe(true);
    expect(isHtmlVariant('http://s.org/a#x')).toBe(false);
    expect(htmlVariantLink('http://s.org/a')).toMatchObject({ tag: 'variant', url: htmlVariantOf('http://s.org/a'), type: 'text/html' });
  });
  it('finds the negotiated resource: the source of the last 303 hop', () => {
    expect(negotiatedResource('http://s.org/a', [{ from: 'http://s.org/a', status: 303 }])).toBe('http://s.org/a');
    const chain = [
      { from: 'http://s.org/music/a', status: 301 },
      { from: 'http://s.org/a', status: 303 },
    ];
    expect(negotiatedResource('http://s.org/music/a', chain)).toBe('http://s.org/a');
    expect(negotiatedResource('http://s.org/a.rdf', [])).toBeNull();
    expect(negotiatedResource('http://s.org/old', [{ from: 'http://s.org/old', status: 301 }])).toBeNull();
    expect(negotiatedResource(htmlVariantOf('http://s.org/a'), [{ from: 'http://s.org/a', status: 303 }])).toBeNull();
  });
});
