// Table-driven tests of detectType: content decides, header and extension are hints.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectType } from '../../src/rdf/sniff.ts';
import type { Detected } from '../../src/rdf/types.ts';

const fixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/rdf/${name}`, import.meta.url));
const rdf = (mediaType: string): Detected => ({ kind: 'rdf', mediaType });
const other = (mediaType: string | null): Detected => ({ kind: 'other', mediaType });
const html: Detected = { kind: 'html' };

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const RSS1 = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
<channel rdf:about="http://example.org/"><title>x</title></channel></rdf:RDF>`;
const ATOM = `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>`;
const XHTML = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML+RDFa 1.0//EN" "http://www.w3.org/MarkUp/DTD/xhtml-rdfa-1.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><head><title>x</title></head></html>`;

const cases: Array<[string, Buffer | string, string | null, string, Detected]> = [
  ['Turtle served as text/turtle', fixture('people.ttl'), 'text/turtle', 'http://x.org/people.ttl', rdf('text/turtle')],
  ['Turtle served as text/plain', fixture('people.ttl'), 'text/plain; charset=utf-8', 'http://x.org/people', rdf('text/turtle')],
  ['Turtle served as text/html', fixture('people.ttl'), 'text/html', 'http://x.org/people.html', rdf('text/turtle')],
  ['N-Triples served as text/plain', fixture('data.nt'), 'text/plain', 'http://x.org/data.txt', rdf('application/n-triples')],
  ['N-Quads', fixture('data.nq'), 'application/octet-stream', 'http://x.org/d', rdf('application/n-quads')],
  ['TriG', fixture('graphs.trig'), null, 'http://x.org/g', rdf('application/trig')],
  ['N3 rules', fixture('rules.n3'), 'text/plain', 'http://x.org/r', rdf('text/n3')],
  ['RDF/XML', fixture('bob.rdf'), 'application/rdf+xml', 'http://x.org/bob.rdf', rdf('application/rdf+xml')],
  ['FOAF .xml with a node element root, served as application/xml', fixture('foaf.xml'), 'application/xml', 'http://x.org/foaf.xml', rdf('application/rdf+xml')],
  ['RSS 1.0 (rdf:RDF root) as application/xml', RSS1, 'application/xml', 'http://x.org/rss.xml', rdf('application/rdf+xml')],
  ['sitemap XML', fixture('sitemap.xml'), 'application/xml', 'http://x.org/sitemap.xml', other('application/xml')],
  ['Atom feed', ATOM, 'application/atom+xml', 'http://x.org/feed', other('application/atom+xml')],
  ['HTML served as application/rdf+xml', fixture('page-jsonld.html'), 'application/rdf+xml', 'http://x.org/a.rdf', html],
  ['HTML page', fixture('page-rdfa.html'), 'text/html', 'http://x.org/', html],
  ['HTML without doctype', '<html><body>x</body></html>', null, 'http://x.org/', html],
  ['HTML fragment starting with a div', '\n  <div class="a">hello</div>', null, 'http://x.org/', html],
  ['XHTML+RDFa with an RDF namespace', XHTML, 'application/xhtml+xml', 'http://x.org/', html],
  ['HTML with @prefix in a script', '<!doctype html><script>/* @prefix x: <y> . */</script>', 'text/turtle', 'http://x.org/', html],
  ['JSON-LD served as application/json', fixture('person.jsonld'), 'application/json', 'http://x.org/p', rdf('application/ld+json')],
  ['JSON-LD array with @graph', '[{"@id": "http://a", "http://p": 1}]', null, 'http://x.org/p', rdf('application/ld+json')],
  ['plain JSON', '{"name": "x", "list": [1, 2]}', 'application/json', 'http://x.org/api', other('application/json')],
  ['JSON served as application/ld+json', '{"name": "x"}', 'application/ld+json', 'http://x.org/p', rdf('application/ld+json')],
  ['PNG served as text/turtle', PNG, 'text/turtle', 'http://x.org/a.ttl', other('image/png')],
  ['PDF served as application/rdf+xml', Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj'), 'application/rdf+xml', 'http://x.org/a.rdf', other('application/pdf')],
  ['zip served as text/plain', Buffer.from('PK\x03\x04\x14\x00\x00\x00'), 'text/plain', 'http://x.org/a.nt', other('application/zip')],
  ['binary with NUL bytes', Buffer.from([0x41, 0x00, 0x42, 0x00, 0x43, 0x01]), null, 'http://x.org/b', other('application/octet-stream')],
  ['empty body', '', 'text/turtle', 'http://x.org/a.ttl', other('text/turtle')],
  ['N-Triples with a leading comment and no final newline', '# c\n<http://a> <http://b> "c" .', null, 'http://x.org/', rdf('application/n-triples')],
  ['Turtle starting with an IRI, no prefixes', '<http://a> <http://b> <http://c> ;\n  <http://d> "x" .\n', null, 'http://x.org/', rdf('text/turtle')],
  ['Turtle with relative IRIs', '<#me> a <http://xmlns.com/foaf/0.1/Person> .\n<> <http://p> <#me> ; <http://q> 1 .', null, 'http://x.org/', rdf('text/turtle')],
  ['Turtle with SPARQL-style PREFIX', 'PREFIX ex: <http://ex.org/>\nex:a ex:b ex:c .', null, 'http://x.org/', rdf('text/turtle')],
  ['Turtle with a brace inside a literal is not TriG', '@prefix ex: <http://e/> .\nex:a ex:b "{ x }" .', null, 'http://x.org/', rdf('text/turtle')],
  ['Turtle with a UTF-8 BOM', Buffer.from('\ufeff@prefix ex: <http://e/> .\nex:a ex:b ex:c .', 'utf8'), null, 'http://x.org/', rdf('text/turtle')],
  ['Turtle in UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('@prefix ex: <http://e/> .\nex:a ex:b ex:c .', 'utf16le')]), null, 'http://x.org/', rdf('text/turtle')],
  ['plain text', 'Hello world, this is text.', 'text/plain', 'http://x.org/readme', other('text/plain')],
  ['plain text claimed as Turtle by the header', 'this is not turtle at all', 'text/turtle', 'http://x.org/a', rdf('text/turtle')],
  ['plain text with a .ttl extension', 'oops', null, 'http://x.org/a.ttl', rdf('text/turtle')],
  ['a text fragment served as HTML', 'Hello <b>world</b>', 'text/html; charset=utf-8', 'http://x.org/', html],
];

describe('detectType', () => {
  it.each(cases)('%s', (_name, body, contentType, url, expected) => {
    expect(detectType(body, contentType, url)).toEqual(expected);
  });

  it('costs little on a 10 MB single line (looks at a bounded prefix)', () => {
    const line = Buffer.alloc(10 * 1024 * 1024, 'x');
    const htmlLine = Buffer.from(`<!doctype html><p>${'a'.repeat(10 * 1024 * 1024)}`);
    // Only detectType is timed (building the 10 MB bodies took most of 200 ms on a loaded machine), in CPU time (at a
    // load of 30 on 2 cores the wall clock ran 0.8 s for it): at load 23 the two calls took 2-36 ms, decoding and
    // scanning both whole lines 236 ms.
    const cpu0 = process.cpuUsage();
    expect(detectType(line, 'text/plain', 'http://x.org/big')).toEqual(other('text/plain'));
    expect(detectType(htmlLine, 'application/rdf+xml', 'http://x.org/big.rdf')).toEqual(html);
    const { user, system } = process.cpuUsage(cpu0);
    expect((user + system) / 1000).toBeLessThan(200);
  });

  it('ignores an N-Triples line cut by the sniffing window', () => {
    const body = `${'<http://a> <http://b> "c" .\n'.repeat(3000)}<http://a> <http://b> "${'y'.repeat(100_000)}" .\n`;
    expect(detectType(body, null, 'http://x.org/')).toEqual(rdf('application/n-triples'));
  });

  it('reads lines ended by LF, CRLF or CR alike (comments and blank lines skipped)', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const nt = ['# a comment', '', '<http://a> <http://b> "c" .', '<http://a> <http://b> <http://d> .', ''].join(eol);
      expect(detectType(nt, null, 'http://x.org/'), JSON.stringify(eol)).toEqual(rdf('application/n-triples'));
      expect(detectType(`${nt}<http://a> <http://b> <http://d> <http://g> .${eol}`, null, 'http://x.org/')).toEqual(rdf('application/n-quads'));
      // One line that is not a statement makes it Turtle (its first code line starts with an IRI and a term).
      expect(detectType(`${nt}<http://a> <http://b> "c" ; <http://e> 1 .${eol}`, null, 'http://x.org/')).toEqual(rdf('text/turtle'));
    }
  });
});
