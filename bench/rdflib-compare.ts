// Triples rdfscout keeps (lenient and --strict-rdf) against Debian's rdflib on the same RDF files.
//
//   node bench/rdflib-compare.ts [FILE|FOLDER …]      (default: test/fixtures/rdf and test/fixtures/rdf/malformed)
//
// rdflib (python3-rdflib, /usr/bin/python3) is the reference: it percent-encodes nothing but accepts IRIs with `|`
// and spaces, and fails a whole document on any syntax error. RDFa pages are left out (rdflib 6 has no RDFa parser),
// and RDF/XML declaring DTD entities is not given to rdflib (expat expands a billion laughs).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { parseDocument } from '../src/rdf/index.ts';

const TYPES: Record<string, { mediaType: string; rdflib: string }> = {
  '.ttl': { mediaType: 'text/turtle', rdflib: 'turtle' },
  '.nt': { mediaType: 'application/n-triples', rdflib: 'nt' },
  '.nq': { mediaType: 'application/n-quads', rdflib: 'nquads' },
  '.trig': { mediaType: 'application/trig', rdflib: 'trig' },
  '.n3': { mediaType: 'text/n3', rdflib: 'n3' },
  '.rdf': { mediaType: 'application/rdf+xml', rdflib: 'xml' },
  '.owl': { mediaType: 'application/rdf+xml', rdflib: 'xml' },
  '.jsonld': { mediaType: 'application/ld+json', rdflib: 'json-ld' },
};

const PYTHON = `
import json, socket, sys, rdflib
socket.setdefaulttimeout(2)  # a remote JSON-LD context is never had here (no internet): fail fast, not hang
for line in sys.stdin:
    path, fmt, base = json.loads(line)
    if '<!ENTITY' in open(path, encoding='utf-8', errors='replace').read(65536):
        print(json.dumps({"error": "skipped: DTD entities (expat would expand them)"}))
        continue
    try:
        g = rdflib.ConjunctiveGraph()
        g.parse(path, format=fmt, publicID=base)
        print(json.dumps({"triples": len(g)}))
    except Exception as e:
        print(json.dumps({"error": (type(e).__name__ + ": " + str(e))[:120]}))
    sys.stdout.flush()
`;

function listFiles(args: string[]): string[] {
  const roots = args.length > 0 ? args : ['test/fixtures/rdf', 'test/fixtures/rdf/malformed'];
  const files: string[] = [];
  for (const root of roots) {
    if (statSync(root).isFile()) files.push(root);
    else for (const name of readdirSync(root).sort()) if (TYPES[extname(name)] !== undefined && statSync(join(root, name)).isFile()) files.push(join(root, name));
  }
  return files;
}

const files = listFiles(process.argv.slice(2));
const base = (file: string) => `http://example.org/${relative('.', file)}`;
const input = files.map((f) => JSON.stringify([f, TYPES[extname(f)]!.rdflib, base(f)])).join('\n');
const reference = execFileSync('/usr/bin/python3', ['-c', PYTHON], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 600_000 })
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { triples?: number; error?: string });

const rows: string[][] = [];
const totals = { rdflib: 0, lenient: 0, strict: 0, bothRead: 0, lenientOnBothRead: 0 };
for (const [i, file] of files.entries()) {
  const text = readFileSync(file, 'utf8');
  const detected = { kind: 'rdf', mediaType: TYPES[extname(file)]!.mediaType } as const;
  const lenient = await parseDocument(text, detected, base(file));
  const strict = await parseDocument(text, detected, base(file), { strict: true });
  const ref = reference[i]!;
  totals.rdflib += ref.triples ?? 0;
  totals.lenient += lenient.quads.length;
  totals.strict += strict.quads.length;
  if (ref.triples !== undefined) {
    totals.bothRead += ref.triples;
    totals.lenientOnBothRead += lenient.quads.length;
  }
  const dropped = lenient.recovery ? `${lenient.recovery.dropped}/${lenient.recovery.repaired}` : '0/0';
  rows.push([relative('.', file), ref.triples === undefined ? `fails (${ref.error?.split(':')[0]})` : String(ref.triples), String(lenient.quads.length), dropped, strict.error ? 'fails' : String(strict.quads.length)]);
}
const header = ['file', 'rdflib', 'lenient', 'dropped/repaired', 'strict'];
const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
console.log([line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n'));
console.log(`\nTotals: rdflib ${totals.rdflib}, rdfscout lenient ${totals.lenient}, strict ${totals.strict}.`);
console.log(`On the files rdflib reads: rdfscout keeps ${totals.lenientOnBothRead} of rdflib's ${totals.bothRead} triples (${((totals.lenientOnBothRead / Math.max(1, totals.bothRead)) * 100).toFixed(1)}%).`);
