// **hint-cost** measures the cheap looks that decide whether an HTML page's embedded RDF is read (issue 18): the three
// regexes as the crawl ran them before (the script look twice: `pageScanFor`, then the embedded-RDF reader) against
// `embeddedHints` as the crawl calls it now (twice, the second answered from the first). Same answers on every page,
// and the CPU time per page, in alternating rounds, on the HTML pages of simulated webs padded to real sizes
// (src/simweb/html-padding.ts). Run: node_modules/.bin/node bench/hint-cost.ts [--pad-kb 0,8,32] [--rounds 6]
import { parseArgs } from 'node:util';
import { embeddedHints, HINT_PATTERNS } from '../src/rdf/parse-embedded.ts';
import { buildWeb, respond } from '../src/simweb/index.ts';

const { values } = parseArgs({ options: { 'pad-kb': { type: 'string', default: '0,8,32' }, rounds: { type: 'string', default: '6' } } });
const ROUNDS = Number(values.rounds);

// The looks as they were run before the one-pass version: one regex each.
const { rdfa: RDFA_HINT, microdata: MICRODATA_HINT, scriptOrBase: SCRIPT_OR_BASE_HINT } = HINT_PATTERNS;

function before(html: string): { rdfa: boolean; microdata: boolean; scriptOrBase: boolean } {
  SCRIPT_OR_BASE_HINT.test(html); // pageScanFor
  return { rdfa: RDFA_HINT.test(html), microdata: MICRODATA_HINT.test(html), scriptOrBase: SCRIPT_OR_BASE_HINT.test(html) };
}
function after(html: string): { rdfa: boolean; microdata: boolean; scriptOrBase: boolean } {
  embeddedHints(html); // pageScanFor
  return embeddedHints(html);
}

const cpuMs = (c0: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

for (const padKb of values['pad-kb'].split(',').map(Number)) {
  const pages: string[] = [];
  for (const profiles of ['mixed', 'modern-like', 'dbtune-like,openlylocal-like,deri-like,rossetti-like,portal-like,campus-like,institute-like']) {
    const web = buildWeb({ profiles, scale: 0.3, seed: 3 });
    for (const site of web.sites) {
      for (const doc of site.docs) {
        const r = respond(web, `http://${site.host}${doc.path}`, 'text/html', padKb > 0 ? { htmlPadBytes: padKb * 1024 } : {});
        if (String(r.headers['content-type'] ?? '').startsWith('text/html') && r.body.length > 0) pages.push(r.body.toString('utf8'));
        if (pages.length >= 6000) break;
      }
    }
  }
  let diff = 0;
  const counts = { rdfa: 0, microdata: 0, scriptOrBase: 0 };
  for (const p of pages) {
    const x = before(p);
    const y = after(p);
    if (JSON.stringify(x) !== JSON.stringify(y)) diff++;
    for (const k of ['rdfa', 'microdata', 'scriptOrBase'] as const) if (y[k]) counts[k]++;
  }
  const mean = pages.reduce((n, p) => n + p.length, 0) / pages.length;
  const times: Record<'before' | 'after', number[]> = { before: [], after: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of (r % 2 === 0 ? [['before', before], ['after', after]] : [['after', after], ['before', before]]) as Array<['before' | 'after', typeof before]>) {
      const c0 = process.cpuUsage();
      for (const p of pages) fn(p);
      times[name].push((cpuMs(c0) * 1000) / pages.length);
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  console.log(
    `pad ${padKb} kB: ${pages.length} HTML pages, mean ${(mean / 1024).toFixed(1)} k chars; different answers ${diff}; pages with RDFa ${counts.rdfa}, Microdata ${counts.microdata}, script/base ${counts.scriptOrBase}`,
  );
  console.log(
    `  µs per page (median of ${ROUNDS}): before ${med(times.before).toFixed(2)}, after ${med(times.after).toFixed(2)} (after/before ${(med(times.after) / med(times.before)).toFixed(2)}); runs before ${times.before.map((t) => t.toFixed(1)).join(' ')}, after ${times.after.map((t) => t.toFixed(1)).join(' ')}`,
  );
}
