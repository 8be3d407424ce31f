// **linkKind** sorts a link by where it probably leads (RDF, HTML, other) from its file extension, for BeeBot's
// link tables in the dashboard (thesis §5 r1's extension test, coarsened).

const RDF = new Set(['rdf', 'owl', 'ttl', 'n3', 'nt', 'nq', 'trig', 'jsonld', 'rj', 'trix']);
const HTML = new Set(['', 'html', 'htm', 'xhtml', 'php', 'asp', 'aspx', 'jsp', 'cgi', 'shtml']);

export type LinkKind = 'rdf' | 'html' | 'other';

/** 'rdf' for RDF file extensions, 'html' for pages (no extension, .html, .php, …), else 'other'. */
export function linkKind(url: string): LinkKind {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return 'other';
  }
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  const ext = dot === -1 ? '' : last.slice(dot + 1).toLowerCase();
  if (RDF.has(ext)) return 'rdf';
  if (HTML.has(ext)) return 'html';
  return 'other';
}
