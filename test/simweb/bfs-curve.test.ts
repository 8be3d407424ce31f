// The breadth-first reference curve: FIFO order over the link graph, redirects inside one fetch, robots respected;
// on a generated web it never beats the oracle and ends at every reachable RDF document.
import { describe, expect, it } from 'vitest';
import { breadthFirstCurve, buildWeb, linksOf, oracleCurve, type OracleSource, referenceCurves, truthRecords, type TruthRecord } from '../../src/simweb/index.ts';

const rec = (url: string, label: TruthRecord['label'], extra: Partial<TruthRecord> = {}): TruthRecord =>
  ({ url, host: new URL(url).hostname, label, status: 200, depth: 0, ...extra }) as TruthRecord;

/** A start page linking a (HTML, with two RDF files below), b (RDF), c (303 → RDF), d (robots-disallowed RDF). */
function graph(): OracleSource {
  const h = 'http://s.example';
  const truth = [
    rec(`${h}/`, 'HR'),
    rec(`${h}/a`, 'HR'),
    rec(`${h}/b.rdf`, 'R'),
    rec(`${h}/c`, 'N', { status: 303, redirectTo: `${h}/c.rdf` }),
    rec(`${h}/c.rdf`, 'R'),
    rec(`${h}/d.rdf`, 'R', { disallowed: true }),
    rec(`${h}/a1.rdf`, 'R'),
    rec(`${h}/a2.rdf`, 'R'),
  ];
  const links: Record<string, string[]> = {
    [`${h}/`]: [`${h}/a`, `${h}/b.rdf`, `${h}/c`, `${h}/d.rdf`, `${h}/elsewhere`],
    [`${h}/a`]: [`${h}/a1.rdf`, `${h}/a2.rdf`, `${h}/b.rdf`],
  };
  return { sites: [{ host: 's.example', startUrl: `${h}/` }], truth: () => truth, links: (u) => links[u] ?? [] };
}

describe('breadthFirstCurve', () => {
  it('fetches in FIFO order, a redirect and its target in one fetch, never a disallowed URL', () => {
    // fetches: /, /a, /b.rdf (1), /c→/c.rdf (2), /a1.rdf (3), /a2.rdf (4); then nothing left.
    expect(breadthFirstCurve(graph(), 8)).toEqual([0, 0, 0, 1, 2, 3, 4, 4, 4]);
    // Without following redirects, the 303 costs its own fetch and its target is queued at the back.
    expect(breadthFirstCurve(graph(), 8, { followsRedirects: false })).toEqual([0, 0, 0, 1, 1, 2, 3, 4, 4]);
    // With robots ignored, the disallowed RDF file is fetched in its turn.
    expect(breadthFirstCurve(graph(), 8, { respectRobots: false })).toEqual([0, 0, 0, 1, 2, 3, 4, 5, 5]);
  });

  it('never beats the oracle on a generated web, and ends where it does when fetches are unlimited', () => {
    const model = buildWeb({ profiles: 'thesis', seed: 3, scale: 0.1 });
    const source: OracleSource = { sites: model.sites, truth: () => truthRecords(model), links: (u) => linksOf(model, u) };
    const n = [...truthRecords(model)].length;
    const bfs = breadthFirstCurve(source, n);
    const oracle = oracleCurve(source, n);
    for (let k = 0; k <= n; k++) expect(bfs[k]).toBeLessThanOrEqual(oracle[k] as number);
    expect(bfs.at(-1)).toBe(oracle.at(-1));
    expect(bfs.at(-1)).toBeGreaterThan(50);
    // Early on the oracle is far ahead: that gap is what a focused crawler can win.
    expect(oracle[200] as number).toBeGreaterThan((bfs[200] as number) * 1.5);
  });

  it('referenceCurves stay within the seeds\' PLDs unless the scope is open', () => {
    const web = { profiles: 'thesis', seed: 3, scale: 0.1 };
    const model = buildWeb(web);
    const first = model.sites[0] as (typeof model.sites)[number];
    const onFirst = [...truthRecords(model)].filter((r) => r.host === first.host && r.label === 'R' && r.status === 200 && !r.disallowed).length;
    const [oracle, bfs] = referenceCurves(web, { seeds: [first.startUrl], seedPldsOnly: true, maxFetches: Number.POSITIVE_INFINITY });
    expect(oracle?.name).toBe('oracle');
    expect(bfs?.name).toBe('breadth-first');
    expect(bfs?.curve.at(-1)).toBeLessThanOrEqual(onFirst);
    expect(bfs?.curve.at(-1)).toBeGreaterThan(0);
    const open = referenceCurves(web, { seeds: [first.startUrl], seedPldsOnly: false, maxFetches: 5000 });
    expect(open[1]?.curve).toHaveLength(5000);
    expect(open[1]?.curve.at(-1)).toBeGreaterThanOrEqual(bfs?.curve.at(-1) as number);
  });
});
