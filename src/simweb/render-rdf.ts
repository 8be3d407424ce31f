// Renders RDF bodies (RDF/XML, Turtle, N-Triples, JSON-LD) with exactly the triple count the truth records.
import { Prng } from '../random/prng.ts';
import { FIRST, LAST, TOPICS, WORDS } from './profiles/words.ts';
import type { RdfFormat, Vocab } from './types.ts';

const NS: Readonly<Record<string, string>> = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  mo: 'http://purl.org/ontology/mo/',
  dcterms: 'http://purl.org/dc/terms/',
  schema: 'http://schema.org/',
  owl: 'http://www.w3.org/2002/07/owl#',
};

/** One triple; predicates are prefixed names (`foaf:name`), objects IRIs or plain literals. */
export interface SimTriple {
  s: string;
  p: string;
  o: { iri: string } | { literal: string };
}

interface VocabSpec {
  type: string;
  label: string;
  /** Repeated properties: `iri` ones point at `<base>/<segment>/<n>`, the others are literals. */
  props: ReadonlyArray<{ p: string; iri?: string }>;
}

const VOCABS: Readonly<Record<Vocab, VocabSpec>> = {
  music: { type: 'mo:MusicArtist', label: 'foaf:name', props: [{ p: 'foaf:made', iri: 'record' }, { p: 'mo:genre', iri: 'genre' }, { p: 'dcterms:description' }, { p: 'owl:sameAs', iri: 'same' }, { p: 'mo:track', iri: 'track' }, { p: 'foaf:homepage', iri: 'home' }] },
  foaf: { type: 'foaf:Person', label: 'foaf:name', props: [{ p: 'foaf:knows', iri: 'person' }, { p: 'foaf:interest', iri: 'topic' }, { p: 'foaf:nick' }, { p: 'foaf:currentProject', iri: 'project' }, { p: 'foaf:publications', iri: 'publication' }] },
  council: { type: 'foaf:Organization', label: 'rdfs:label', props: [{ p: 'foaf:member', iri: 'members' }, { p: 'dcterms:description' }, { p: 'owl:sameAs', iri: 'gov' }, { p: 'foaf:homepage', iri: 'web' }, { p: 'dcterms:subject' }] },
  schema: { type: 'schema:Product', label: 'schema:name', props: [{ p: 'schema:description' }, { p: 'schema:isRelatedTo', iri: 'products' }, { p: 'schema:keywords' }, { p: 'schema:sameAs', iri: 'same' }, { p: 'schema:offers', iri: 'offers' }] },
  archive: { type: 'dcterms:BibliographicResource', label: 'dcterms:title', props: [{ p: 'dcterms:creator', iri: 'people' }, { p: 'dcterms:date' }, { p: 'dcterms:relation', iri: 'docs' }, { p: 'dcterms:subject' }, { p: 'dcterms:hasPart', iri: 'img' }] },
};

/** The subject a document describes: dbtune-style resource URI (extension stripped), FOAF `#me`. */
export function subjectOf(url: string, vocab: Vocab): string {
  const base = url.replace(/\.(rdf|ttl|nt|jsonld|xml)$/, '');
  return vocab === 'foaf' ? `${url}#me` : base;
}

/** Generates `count` distinct triples about `subject`, deterministically from `seed`. */
export function generateTriples(seed: number, siteBase: string, subject: string, vocab: Vocab, count: number): SimTriple[] {
  const rng = new Prng(seed);
  const spec = VOCABS[vocab];
  const out: SimTriple[] = [];
  if (count <= 0) return out;
  out.push({ s: subject, p: 'rdf:type', o: { iri: expand(spec.type) } });
  if (count > 1) out.push({ s: subject, p: spec.label, o: { literal: vocab === 'foaf' ? `${cap(rng.pick(FIRST))} ${cap(rng.pick(LAST))}` : `${cap(rng.pick(WORDS))} ${rng.int(1, 999)}` } });
  for (let i = 2; i < count; i++) {
    const prop = spec.props[i % spec.props.length] as { p: string; iri?: string };
    const o = prop.iri ? { iri: `${siteBase}/${prop.iri}/${i}-${rng.int(1, 9999)}` } : { literal: `${rng.pick(TOPICS)} ${i}` };
    out.push({ s: subject, p: prop.p, o });
  }
  return out;
}

/** Serialises triples in the given format. */
export function serialize(triples: readonly SimTriple[], format: RdfFormat): string {
  switch (format) {
    case 'rdfxml':
      return toRdfXml(triples);
    case 'turtle':
      return toTurtle(triples);
    case 'ntriples':
      return triples.map((t) => `<${t.s}> <${expand(t.p)}> ${nt(t.o)} .\n`).join('');
    case 'jsonld':
      return toJsonLd(triples);
  }
}

function cap(w: string): string {
  return (w[0] ?? '').toUpperCase() + w.slice(1);
}

function expand(qname: string): string {
  const [prefix, local] = qname.split(':') as [string, string];
  return `${NS[prefix]}${local}`;
}

function usedPrefixes(triples: readonly SimTriple[]): string[] {
  return [...new Set(['rdf', ...triples.map((t) => t.p.split(':')[0] as string)])].sort();
}

function escapeLiteral(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function nt(o: SimTriple['o']): string {
  return 'iri' in o ? `<${o.iri}>` : `"${escapeLiteral(o.literal)}"`;
}

function bySubject(triples: readonly SimTriple[]): Map<string, SimTriple[]> {
  const m = new Map<string, SimTriple[]>();
  for (const t of triples) m.set(t.s, [...(m.get(t.s) ?? []), t]);
  return m;
}

function toRdfXml(triples: readonly SimTriple[]): string {
  const ns = usedPrefixes(triples).map((p) => `\n    xmlns:${p}="${NS[p]}"`).join('');
  let out = `<?xml version="1.0" encoding="utf-8"?>\n<rdf:RDF${ns}>\n`;
  for (const [s, ts] of bySubject(triples)) {
    out += `  <rdf:Description rdf:about="${escapeXml(s)}">\n`;
    for (const t of ts) {
      out += 'iri' in t.o ? `    <${t.p} rdf:resource="${escapeXml(t.o.iri)}"/>\n` : `    <${t.p}>${escapeXml(t.o.literal)}</${t.p}>\n`;
    }
    out += '  </rdf:Description>\n';
  }
  return `${out}</rdf:RDF>\n`;
}

function toTurtle(triples: readonly SimTriple[]): string {
  let out = usedPrefixes(triples).map((p) => `@prefix ${p}: <${NS[p]}> .\n`).join('');
  for (const [s, ts] of bySubject(triples)) {
    const parts = ts.map((t) => `${t.p === 'rdf:type' ? 'a' : t.p} ${'iri' in t.o ? `<${t.o.iri}>` : nt(t.o)}`);
    out += `\n<${s}>\n    ${parts.join(' ;\n    ')} .\n`;
  }
  return out;
}

function toJsonLd(triples: readonly SimTriple[]): string {
  const context: Record<string, string> = {};
  for (const p of usedPrefixes(triples)) context[p] = NS[p] as string;
  const graph = [...bySubject(triples)].map(([s, ts]) => {
    const node: Record<string, unknown> = { '@id': s };
    for (const t of ts) {
      if (t.p === 'rdf:type' && 'iri' in t.o) {
        node['@type'] = [...((node['@type'] as string[]) ?? []), t.o.iri];
        continue;
      }
      const value = 'iri' in t.o ? { '@id': t.o.iri } : t.o.literal;
      node[t.p] = [...((node[t.p] as unknown[]) ?? []), value];
    }
    return node;
  });
  return `${JSON.stringify({ '@context': context, '@graph': graph }, null, 2)}\n`;
}

/** The schema.org JSON-LD block embedded in a modern-like page (`count` triples, inline context only). */
export function embeddedJsonLd(seed: number, subject: string, count: number): string {
  const rng = new Prng(seed);
  const props = ['name', 'description', 'sku', 'brand', 'color', 'material', 'category', 'keywords', 'model', 'gtin13', 'award'];
  const node: Record<string, unknown> = { '@context': { '@vocab': 'http://schema.org/' }, '@id': subject, '@type': 'Product' };
  for (let i = 0; i < Math.min(count - 1, props.length); i++) node[props[i] as string] = `${cap(rng.pick(WORDS))} ${rng.int(1, 999)}`;
  return JSON.stringify(node);
}
