// **invalidTermIn** checks the terms of one N-Triples line as export writes it: absolute IRIs, well-formed literals.

const LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';
/** RDF 1.1 §3.2: an IRI is absolute (a scheme, then ':'); RFC 3987 excludes these characters (N-Triples escapes them). */
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\x00-\x20<>"{}|^`\\]*$/;
/** BCP 47's shape, as N-Triples' LANGTAG production reads it. */
const LANG_TAG = /^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/;

/**
 * Why a stored N-Triples line (`S P O .`) is not valid RDF, or null when it is. Catches what parsers let through and
 * stores kept: relative IRIs (`<_:b4663>` from an RDFa `resource="_:b4663"`), a `rdf:langString` without a language
 * (from `lang=""`), a malformed language tag. IRIs with `\u` escapes are checked as written (escapes stand for
 * characters that the pattern admits).
 */
export function invalidTermIn(line: string): string | null {
  let i = 0;
  const iri = (): string | null => {
    const end = line.indexOf('>', i);
    if (line[i] !== '<' || end < 0) return `no IRI at column ${i + 1}`;
    const written = line.slice(i + 1, end);
    i = end + 1;
    return ABSOLUTE_IRI.test(written.replace(/\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}/g, 'x')) ? null : `not an absolute IRI: <${written}>`;
  };
  const blank = (): string | null => {
    const m = /^_:[A-Za-z0-9_][A-Za-z0-9_.-]*/.exec(line.slice(i));
    if (!m) return `no blank node at column ${i + 1}`;
    i += m[0].length;
    return null;
  };
  const space = (): void => {
    while (line[i] === ' ' || line[i] === '\t') i++;
  };
  const subjectOrObject = (): string | null => (line[i] === '<' ? iri() : line[i] === '_' ? blank() : `unexpected ${JSON.stringify(line[i] ?? 'end')} at column ${i + 1}`);
  space();
  const s = subjectOrObject();
  if (s) return s;
  space();
  const p = iri();
  if (p) return p;
  space();
  if (line[i] === '"') {
    for (i++; i < line.length && line[i] !== '"'; i++) if (line[i] === '\\') i++;
    if (line[i] !== '"') return 'unterminated literal';
    i++;
    if (line[i] === '@') {
      const m = /^@([^\s]*)/.exec(line.slice(i));
      const tag = m?.[1] ?? '';
      if (!LANG_TAG.test(tag)) return `malformed language tag @${tag}`;
      i += tag.length + 1;
    } else if (line.startsWith('^^', i)) {
      i += 2;
      const dtStart = i;
      const dt = iri();
      if (dt) return dt;
      if (line.slice(dtStart + 1, i - 1) === LANG_STRING) return 'rdf:langString literal without a language';
    }
  } else {
    const o = subjectOrObject();
    if (o) return o;
  }
  space();
  return line.slice(i).trim() === '.' ? null : `unexpected ${JSON.stringify(line.slice(i, i + 10))} after the object`;
}
