// The learned link yield: cluster keys, estimates, anticipation, credit, exploration, JSON.
import { describe, expect, it } from 'vitest';
import { htmlVariantLink } from '../../src/links/html-variant.ts';
import { anchorShape, coarseTemplate, LinkYield, linkKeys, templateKey, YIELD_PRIOR } from '../../src/relevance/link-yield.ts';
import { link } from './helpers.ts';

const PAGE = 'http://s.org/people/ann-1';

describe('link keys', () => {
  it('cluster a link by style (with DOM context), URL template and its page', () => {
    const k = linkKeys(link('http://s.org/people/bob-2/foaf.rdf', { anchor: 'FOAF', domPath: 'li.card a.btn' }), PAGE);
    expect(k).toEqual({ style: 'a|||foaf|li.card a.btn', target: 's.org/people/{x}/{x}.rdf', parent: 's.org/people/{x}' });
    expect(linkKeys(link('http://s.org/'), null).parent).toBe('');
  });
  it('shape anchors: short format words kept, names and numbers by length', () => {
    expect(anchorShape('RDF')).toBe('rdf');
    expect(anchorShape('B')).toBe('#c');
    expect(anchorShape('Turtle')).toBe('turtle');
    expect(anchorShape('Personal profile')).toBe('personal profile');
    expect(anchorShape('Mary Walsh 3')).toBe('#w3');
    expect(anchorShape('')).toBe('');
  });
  it('keep an HTML variant apart from its resource, and coarsen the first segment', () => {
    const variant = htmlVariantLink('http://s.org/ns/vocab/Agent1');
    expect(templateKey(variant.url)).toBe('s.org/ns/vocab/{x}#html');
    expect(templateKey('http://s.org/ns/vocab/Agent1')).toBe('s.org/ns/vocab/{x}');
    expect(coarseTemplate('s.org/jamendo/artist/{x}')).toBe('s.org/{x}/artist/{x}');
    expect(coarseTemplate('s.org/{x}')).toBe('s.org/{x}');
  });
});

describe('LinkYield', () => {
  const rdfLink = (i: number) => linkKeys(link(`http://s.org/data/${i}.ttl`), 'http://s.org/list?page=1');
  const pageLink = (i: number) => linkKeys(link(`http://s.org/item/${i}`), 'http://s.org/list?page=1');

  it('starts from the thesis label prior, with an exploration bonus for two waiting links of a template', () => {
    const y = new LinkYield({ explore: 0.1, trials: 2 });
    const first = y.estimate(pageLink(1), 'H');
    expect(first).toEqual({ value: YIELD_PRIOR.H + 0.1, exploring: true });
    y.noteTrial(pageLink(1));
    y.noteTrial(pageLink(2));
    expect(y.estimate(pageLink(3), 'H')).toEqual({ value: YIELD_PRIOR.H, exploring: false });
    // A fetch of the template frees a trial slot, with a smaller bonus.
    y.observe(pageLink(1), ['http://s.org/item/1'], 'http://s.org/list?page=1', 'other');
    const after = y.estimate(pageLink(3), 'H');
    expect(after.exploring).toBe(true);
  });

  it('learns direct yield: RDF links that are RDF rise, links that are not fall', () => {
    const y = new LinkYield({ explore: 0 });
    for (let i = 0; i < 20; i++) y.observe(rdfLink(i), [`http://s.org/data/${i}.ttl`], null, 'rdf');
    for (let i = 0; i < 20; i++) y.observe(pageLink(i), [`http://s.org/item/${i}`], null, 'other');
    expect(y.estimate(rdfLink(99), 'H').value).toBeGreaterThan(0.9);
    expect(y.estimate(pageLink(99), 'R').value).toBeLessThan(0.1);
  });

  it('a page counts for what it leads to: anticipated from its links, or found below it, whichever is more', () => {
    const y = new LinkYield({ explore: 0, worth: 0.3 });
    for (let i = 0; i < 20; i++) y.observe(rdfLink(i), [`http://s.org/data/${i}.ttl`], null, 'rdf');
    // Item pages link one RDF file each (anticipated 1 for 1 fetch): rate → 1 / (1 + 1).
    for (let i = 0; i < 30; i++) {
      const url = `http://s.org/item/${i}`;
      y.anticipate(url, [{ keys: linkKeys(link(`http://s.org/data/x${i}.ttl`), url), label: 'R' }]);
      y.observe(pageLink(i), [url], 'http://s.org/list?page=1', 'page');
    }
    const item = y.estimate(pageLink(99), 'H').value;
    expect(item).toBeGreaterThan(0.4);
    expect(item).toBeLessThan(0.55);
    expect(y.counts('t', 's.org/item/{x}')).toMatchObject({ n: 30, rdf: 0 });
    // Nothing anticipated on these pages, but RDF is found below them: the found RDF counts.
    const other = (i: number) => linkKeys(link(`http://s.org/other/${i}`), 'http://s.org/');
    y.observe(linkKeys(link('http://s.org/'), null), ['http://s.org/'], null, 'page');
    for (let i = 0; i < 10; i++) {
      y.observe(other(i), [`http://s.org/other/${i}`], 'http://s.org/', 'page');
      y.observe(rdfLink(100 + i), [`http://s.org/data/${100 + i}.ttl`], `http://s.org/other/${i}`, 'rdf');
    }
    expect(y.counts('t', 's.org/other/{x}')).toMatchObject({ n: 10, below: 10, belowCost: 10 });
    // And the page above them gets half a document per RDF found two levels down (two fetches each).
    expect(y.counts('t', 's.org/')).toMatchObject({ n: 1, below: 5, belowCost: 10 });
  });

  it('tells links of one template apart by style: JSON badges next to RDF badges on `?format=` exports', () => {
    const y = new LinkYield({ explore: 0 });
    const badge = (i: number, fmt: string) => linkKeys(link(`http://s.org/d/x-${i}/export?format=${fmt}`, { anchor: fmt.toUpperCase() }), `http://s.org/d/x-${i}`);
    expect(badge(1, 'rdf').target).toBe(badge(1, 'json').target);
    for (let i = 0; i < 20; i++) {
      y.observe(badge(i, 'rdf'), [`http://s.org/d/x-${i}/export?format=rdf`], `http://s.org/d/x-${i}`, 'rdf');
      y.observe(badge(i, 'json'), [`http://s.org/d/x-${i}/export?format=json`], `http://s.org/d/x-${i}`, 'other');
    }
    expect(y.estimate(badge(99, 'rdf'), 'H').value).toBeGreaterThan(0.8);
    expect(y.estimate(badge(99, 'json'), 'H').value).toBeLessThan(0.15);
    expect(y.counts('st', `a|||json| s.org/d/{x}/{x}?format={x}`)).toMatchObject({ n: 20, rdf: 0 });
  });

  it('gives no exploration bonus to N links, nor to a template whose first fetches found no RDF in or below them', () => {
    const y = new LinkYield({ explore: 0.1, barrenAfter: 3 });
    expect(y.estimate(pageLink(1), 'N')).toEqual({ value: YIELD_PRIOR.N, exploring: false });
    for (let i = 0; i < 2; i++) y.observe(pageLink(i), [`http://s.org/item/${i}`], null, 'page');
    expect(y.estimate(pageLink(5), 'H').exploring).toBe(true);
    y.observe(pageLink(2), ['http://s.org/item/2'], null, 'page');
    expect(y.estimate(pageLink(5), 'H').exploring).toBe(false);
    // One RDF document found below one of them: the template is explored again.
    y.observe(rdfLink(1), ['http://s.org/data/1.ttl'], 'http://s.org/item/2', 'rdf');
    expect(y.estimate(pageLink(5), 'H').exploring).toBe(true);
  });

  it('anticipates only links to documents not fetched yet', () => {
    const y = new LinkYield({ explore: 0, worth: 0.3 });
    y.observe(rdfLink(1), ['http://s.org/data/1.ttl'], null, 'rdf');
    const list = 'http://s.org/list?page=2';
    const child = (i: number) => ({ keys: rdfLink(i), label: 'R' as const, url: `http://s.org/data/${i}.ttl` });
    y.anticipate(list, [child(1), child(2)]);
    y.observe(linkKeys(link(list), 'http://s.org/'), [list], 'http://s.org/', 'page');
    // One link anticipated (data/2), not the one fetched already (data/1).
    expect(y.counts('t', 's.org/{x}?page={x}')?.belowCost).toBe(1);
  });

  it('credits a link to the first page that listed it: a duplicate or a second listing of it leads to nothing new', () => {
    const y = new LinkYield({ explore: 0, worth: 0.3 });
    const dataset = 'http://s.org/dataset/a-1';
    const alias = 'http://s.org/dataset/a-1?lang=ga';
    const rdf = { keys: linkKeys(link('http://s.org/dataset/a-1.rdf'), dataset), label: 'R' as const, url: 'http://s.org/dataset/a-1.rdf' };
    y.anticipate(dataset, [rdf]);
    y.observe(linkKeys(link(dataset), 'http://s.org/'), [dataset], 'http://s.org/', 'page');
    // The duplicate lists the same export: queued from the dataset page already, it is not anticipated again.
    y.anticipate(alias, [{ ...rdf, keys: linkKeys(link(rdf.url), alias) }]);
    const aliasKeys = linkKeys(link(alias), dataset);
    y.observe(aliasKeys, [alias], dataset, 'page');
    expect(y.counts('t', aliasKeys.target)).toMatchObject({ n: 1, below: 0, belowCost: 0 });
    // The export is fetched with the duplicate as its parent (it raised the link's priority last): the credit for
    // finding it still goes to the dataset page's clusters, not to the duplicate's.
    y.observe(linkKeys(link(rdf.url), alias), [rdf.url], alias, 'rdf');
    expect(y.counts('t', aliasKeys.target)).toMatchObject({ below: 0 });
    // max(anticipated 0.7, found 1): 0.7 for one fetch, then 0.3 more for 0.3 of a fetch.
    expect(y.counts('t', 's.org/dataset/{x}')?.below).toBeCloseTo(1);
    expect(y.counts('t', 's.org/dataset/{x}')?.belowCost).toBeCloseTo(1.3);
  });

  it("re-estimates a queued link with its template's exploration bonus unless the template was found barren", () => {
    const y = new LinkYield({ explore: 0.1, barrenAfter: 3, trials: 1 });
    y.noteTrial(pageLink(1));
    // No trial slot is free for a new link, but a queued one keeps its bonus when re-estimated.
    expect(y.estimate(pageLink(2), 'H').exploring).toBe(false);
    expect(y.estimate(pageLink(1), 'H', 'requeue')).toEqual({ value: YIELD_PRIOR.H + 0.1, exploring: true });
    for (let i = 0; i < 3; i++) y.observe(pageLink(i), [`http://s.org/item/${i}`], null, 'page');
    expect(y.estimate(pageLink(1), 'H', 'requeue').exploring).toBe(false);
    expect(y.estimate(pageLink(1), 'H', 'requeue').value).toBeLessThan(YIELD_PRIOR.H / 2);
  });

  it('keeps exploring a template through its first seven barren fetches by default (heterogeneous people pages)', () => {
    const y = new LinkYield({ explore: 0.1 });
    for (let i = 0; i < 7; i++) y.observe(pageLink(i), [`http://s.org/item/${i}`], null, 'page');
    expect(y.estimate(pageLink(50), 'H').exploring).toBe(true);
    y.observe(pageLink(7), ['http://s.org/item/7'], null, 'page');
    expect(y.estimate(pageLink(50), 'H').exploring).toBe(false);
  });

  it('credits an RDF document up to five levels above it by default: faculty → department → list → person → FOAF', () => {
    const chain = ['http://s.org/', 'http://s.org/faculty/science', 'http://s.org/faculty/science/physics', 'http://s.org/physics/staff', 'http://s.org/people/ann-1'];
    const foaf = 'http://s.org/people/ann-1/foaf.rdf';
    const crawl = (y: LinkYield): void => {
      for (const [i, url] of chain.entries()) {
        const parent = i === 0 ? null : (chain[i - 1] as string);
        y.observe(linkKeys(link(url), parent), [url], parent, 'page');
      }
      y.observe(linkKeys(link(foaf), chain[4] as string), [foaf], chain[4] as string, 'rdf');
    };
    const y = new LinkYield({ explore: 0 });
    crawl(y);
    // Level 1 (the person page): one document for one fetch; level L: 0.5^(L − 1) for L × that many fetches.
    expect(y.counts('t', 's.org/people/{x}')).toMatchObject({ below: 1, belowCost: 1 });
    expect(y.counts('t', 's.org/physics/{x}')).toMatchObject({ below: 0.5, belowCost: 1 });
    expect(y.counts('t', 's.org/faculty/science/{x}')).toMatchObject({ below: 0.25, belowCost: 0.75 });
    expect(y.counts('t', 's.org/faculty/{x}')).toMatchObject({ below: 0.125, belowCost: 0.5 });
    expect(y.counts('t', 's.org/')).toMatchObject({ below: 0.0625, belowCost: 0.3125 });
    // With three levels (the default before session 8) the faculty and start pages get nothing.
    const short = new LinkYield({ explore: 0, levels: 3 });
    crawl(short);
    expect(short.counts('t', 's.org/faculty/{x}')).toMatchObject({ below: 0, belowCost: 0 });
    expect(short.counts('t', 's.org/')).toMatchObject({ below: 0, belowCost: 0 });
  });

  it('with `steiner`, charges an RDF document below a page only the fetches it adds to the paths under that page', () => {
    const list = 'http://s.org/staff';
    const people = ['http://s.org/people/ann-1', 'http://s.org/people/bob-2'];
    const crawl = (y: LinkYield): void => {
      y.observe(linkKeys(link('http://s.org/'), null), ['http://s.org/'], null, 'page');
      y.observe(linkKeys(link(list), 'http://s.org/'), [list], 'http://s.org/', 'page');
      for (const p of people) y.observe(linkKeys(link(p), list), [p], list, 'page');
      // Two FOAF files under the first person page, one under the second.
      for (const [i, p] of [people[0], people[0], people[1]].entries()) {
        const foaf = `${p}/foaf-${i}.rdf`;
        y.observe(linkKeys(link(foaf), p as string), [foaf], p as string, 'rdf');
      }
    };
    const plain = new LinkYield({ explore: 0 });
    crawl(plain);
    // Without: level L costs L fetches every time (the list 2 + 2 + 2, the start page 3 + 3 + 3, times 0.5^(L − 1)).
    expect(plain.counts('t', 's.org/{x}')).toMatchObject({ below: 1.5, belowCost: 3 });
    expect(plain.counts('t', 's.org/')).toMatchObject({ below: 0.75, belowCost: 2.25 });
    const steiner = new LinkYield({ explore: 0, steiner: true });
    crawl(steiner);
    // With: the list pays 2 (FOAF + new person page), 1 (the person page is on a path already), 2 (the second person).
    expect(steiner.counts('t', 's.org/{x}')).toMatchObject({ below: 1.5, belowCost: 2.5 });
    // The start page pays 3 (FOAF, person, list), 1, 2.
    expect(steiner.counts('t', 's.org/')).toMatchObject({ below: 0.75, belowCost: 1.5 });
    // Level 1 is alike either way: one document for one fetch each.
    expect(steiner.counts('t', 's.org/people/{x}')).toEqual(plain.counts('t', 's.org/people/{x}'));
    // The flag survives a snapshot: a resumed crawl charges the next document below the first person page alike.
    const copy = LinkYield.fromJSON(JSON.parse(JSON.stringify(steiner.toJSON())), { explore: 0, steiner: true });
    for (const y of [steiner, copy]) y.observe(linkKeys(link(`${people[0]}/foaf-9.rdf`), people[0] as string), [`${people[0]}/foaf-9.rdf`], people[0] as string, 'rdf');
    expect(copy.counts('t', 's.org/')).toEqual(steiner.counts('t', 's.org/'));
    expect(copy.counts('t', 's.org/')).toMatchObject({ below: 1, belowCost: 1.75 });
  });

  it('lets queued links be sent back only after `sendBackAfter` fetches of their template', () => {
    const keys = (i: number) => linkKeys(link(`http://s.org/section/${i}`), 'http://s.org/');
    const y = new LinkYield({ sendBackAfter: 2 });
    expect(y.maySendBack(keys(0))).toBe(false);
    y.observe(keys(1), ['http://s.org/section/1'], 'http://s.org/', 'page');
    expect(y.maySendBack(keys(0))).toBe(false);
    y.observe(keys(2), ['http://s.org/section/2'], 'http://s.org/', 'page');
    expect(y.maySendBack(keys(0))).toBe(true);
    // With 0 (the default before session 10) any link may be sent back, even of a template never fetched.
    expect(new LinkYield({ sendBackAfter: 0 }).maySendBack(keys(0))).toBe(true);
  });

  it('round-trips through JSON', () => {
    const y = new LinkYield({ explore: 0.1 });
    y.noteTrial(pageLink(1));
    y.anticipate('http://s.org/item/1', [{ keys: rdfLink(1), label: 'R' }]);
    y.observe(rdfLink(1), ['http://s.org/data/1.ttl'], null, 'rdf');
    y.observe(pageLink(2), ['http://s.org/item/2'], null, 'page');
    const copy = LinkYield.fromJSON(JSON.parse(JSON.stringify(y.toJSON())), { explore: 0.1 });
    expect(copy.toJSON()).toEqual(y.toJSON());
    expect(copy.estimate(pageLink(5), 'H')).toEqual(y.estimate(pageLink(5), 'H'));
  });
});
