// **sniff-cost** compares detectType (src/rdf/sniff.ts) of this checkout with another's (--base DIR): the same answer
// on every document of several simulated webs and on generated line soups (LF/CRLF/CR, cut at the 64 kB window),
// and the CPU time on a 65 kB HTML page. Run: node_modules/.bin/node bench/sniff-cost.ts --base /tmp/base-checkout
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildWeb, respond } from '../src/simweb/index.ts';
import { detectType } from '../src/rdf/sniff.ts';

const { values } = parseArgs({ options: { base: { type: 'string' } } });
if (values.base === undefined) throw new Error('--base DIR (a checkout to compare with) is required');
const a = ((await import(join(values.base, 'src/rdf/sniff.ts'))) as { detectType: typeof detectType }).detectType;
const b = detectType;
let n = 0;
let diff = 0;
const check = (body: Buffer | string, ct: string | null, url: string) => {
  n++;
  const x = JSON.stringify(a(body, ct, url));
  const y = JSON.stringify(b(body, ct, url));
  if (x !== y && ++diff < 5) console.log('DIFF', url, x, y);
};
for (const profiles of ['mixed', 'thesis', 'modern-like', 'dbtune-like,openlylocal-like,deri-like,rossetti-like,portal-like,campus-like,institute-like']) {
  const web = buildWeb({ profiles, scale: 0.3, seed: 2 });
  for (const site of web.sites) {
    for (const doc of site.docs) {
      for (const accept of ['text/html', 'text/turtle', 'application/rdf+xml', '*/*']) {
        const url = `http://${site.host}${doc.path}`;
        const r = respond(web, url, accept);
        if (r.body.length === 0) continue;
        check(r.body, r.headers['content-type'] === undefined ? null : String(r.headers['content-type']), url);
      }
    }
  }
}
// Random line soups around the truncation point and line-break kinds.
const pieces = ['<http://a/s> <http://a/p> <http://a/o> .', '<http://a/s> <http://a/p> "x" <http://g> .', '# c', '', '  ', '@prefix a: <http://a/> .', 'a:s a:p a:o .', '<html>', 'text', '_:b <http://p> _:c .', '{', 'GRAPH <g> {'];
const seps = ['\n', '\r\n', '\r', '\n\r'];
let seed = 1;
const rnd = (k: number) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % k;
};
for (let i = 0; i < 20000; i++) {
  let t = '';
  const lines = 1 + rnd(8);
  for (let j = 0; j < lines; j++) t += `${pieces[rnd(pieces.length)]}${seps[rnd(seps.length)]}`;
  if (rnd(2) === 0) t = t.slice(0, rnd(t.length + 1));
  // Long prefix: pad to force truncation sometimes
  if (rnd(5) === 0) t = t + ' '.repeat(70 * 1024);
  check(Buffer.from(t), rnd(2) ? 'text/plain' : null, rnd(2) ? 'http://x/a.ttl' : 'http://x/a');
  check(t, 'text/turtle', 'http://x/a');
}
console.log(`compared ${n}, different ${diff}`);
let n2 = 0;
for (let i = 0; i < 400; i++) {
  const line = pieces[rnd(3)] as string;
  const sep = seps[rnd(seps.length)] as string;
  const k = 1200 + rnd(800);
  let t = '';
  for (let j = 0; j < k; j++) t += (rnd(50) === 0 ? pieces[rnd(pieces.length)] : line) + sep;
  check(Buffer.from(t), 'text/plain', 'http://x/a');
  n2++;
}
console.log(`long texts ${n2}, different total ${diff}`);
const big = Buffer.from(`<!doctype html><html><head><title>x</title></head><body>${'<p>some text of a real page <a href="/x">link</a></p>\n'.repeat(1200)}</body></html>`);
for (const [name, f] of [['base', a], ['this', b]] as const) {
  const t0 = process.cpuUsage();
  for (let i = 0; i < 2000; i++) f(big, 'text/html', 'http://x/page');
  const c = process.cpuUsage(t0);
  console.log(`${name}: ${((c.user + c.system) / 2000).toFixed(1)} µs per ${big.length}-byte page`);
}
