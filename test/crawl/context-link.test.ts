// jsonLdContextLink: the context a JSON response names in its Link header (JSON-LD 1.1 §6.1, API §9.4).
import { describe, expect, it } from 'vitest';
import { JSONLD_CONTEXT_REL, jsonLdContextLink } from '../../src/crawl/context-link.ts';

const base = 'http://docs.example/data/x.json';

describe('jsonLdContextLink', () => {
  it('reads the context of application/json and +json responses, resolved against the document', () => {
    expect(jsonLdContextLink('application/json; charset=utf-8', `<../ctx.jsonld>; rel="${JSONLD_CONTEXT_REL}"`, base)).toBe('http://docs.example/ctx.jsonld');
    expect(jsonLdContextLink('application/geo+json', `<http://c.example/geo>; rel="${JSONLD_CONTEXT_REL}"; type="application/ld+json"`, base)).toBe('http://c.example/geo');
  });

  it('finds the context among other links and relation lists', () => {
    const header = `<http://c.example/next>; rel="next", <http://c.example/ctx>; rel="describedby ${JSONLD_CONTEXT_REL}", <http://c.example/other>; rel="${JSONLD_CONTEXT_REL}"`;
    expect(jsonLdContextLink('application/json', header, base)).toBe('http://c.example/ctx');
  });

  it('ignores it on application/ld+json (JSON-LD 1.1 §6.1) and on other types, and without the relation', () => {
    const header = `<http://c.example/ctx>; rel="${JSONLD_CONTEXT_REL}"`;
    expect(jsonLdContextLink('application/ld+json', header, base)).toBeNull();
    expect(jsonLdContextLink('text/html', header, base)).toBeNull();
    expect(jsonLdContextLink(null, header, base)).toBeNull();
    expect(jsonLdContextLink('application/json', '<http://c.example/ctx>; rel="alternate"', base)).toBeNull();
    expect(jsonLdContextLink('application/json', undefined, base)).toBeNull();
  });
});
