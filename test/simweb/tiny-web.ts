// A tiny hand-built web for the oracle tests: `path → [label, links, extra]` on host `t.org`.
import type { OracleSource, TruthRecord } from '../../src/simweb/index.ts';

/** A tiny web from `path → [label, links, extra]` on host `t.org` (a path may carry a query). */
export function tinyWeb(pages: Record<string, [TruthRecord['label'], string[], Partial<TruthRecord>?]>): OracleSource {
  const abs = (p: string): string => `http://t.org${p}`;
  const truth: TruthRecord[] = Object.entries(pages).map(([p, [label, , extra]]) => ({
    url: abs(p),
    host: 't.org',
    pld: 't.org',
    label,
    depth: 0,
    status: 200,
    contentType: label === 'R' ? 'text/turtle' : 'text/html',
    ...extra,
  }));
  return {
    sites: [{ host: 't.org', startUrl: abs('/') }],
    truth: () => truth,
    links: (url) => (pages[new URL(url).pathname + new URL(url).search]?.[1] ?? []).map(abs),
  };
}
