"""Oracle and reference of one real site, from its served files alone (not from rdfscout's parsers).

Reads a JSON request on stdin: {dir, site, contexts} where `site` is an entry of sites.json and `contexts` maps JSON-LD
context URLs to local files. Writes JSON on stdout:
  files: {relpath: {type: 'rdf'|'html', media, rdflib (triples or null), error, embedded}}
  reachable_any:  RDF files reachable from the seeds through HTML links and IRIs in RDF documents (within the site)
  reachable_html: RDF files reachable through HTML links only (RDF documents are leaves)
  reachable_embedded: HTML files with RDFa/Microdata attributes or a JSON-LD block that is JSON, reachable
                      through any link
rdflib (python3-rdflib, Debian's 6.1) gives the reference triple count of each RDF file, parsed with the URL it is
served at as base. No network: every socket to anything but loopback is refused, and JSON-LD contexts come from
`contexts` or the site's own files.
"""
import json
import os
import re
import socket
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urljoin, urlsplit

_connect = socket.socket.connect


def _loopback_only(self, address):
    host = address[0] if isinstance(address, tuple) else address
    if host not in ('127.0.0.1', '::1', 'localhost'):
        raise OSError(f'oracle.py refuses network access to {host}')
    return _connect(self, address)


socket.socket.connect = _loopback_only

import logging  # noqa: E402
import warnings  # noqa: E402

import rdflib  # noqa: E402
import rdflib.plugins.shared.jsonld.context as jsonld_context  # noqa: E402

RDF_EXT = {
    'ttl': ('text/turtle', 'turtle'),
    'nt': ('application/n-triples', 'nt'),
    'nq': ('application/n-quads', 'nquads'),
    'trig': ('application/trig', 'trig'),
    'n3': ('text/n3', 'n3'),
    'rdf': ('application/rdf+xml', 'xml'),
    'owl': ('application/rdf+xml', 'xml'),
    'jsonld': ('application/ld+json', 'json-ld'),
}
HTML_EXT = {'html', 'htm', 'xhtml'}
RDFA_OR_MICRODATA = re.compile(rb'''<[a-zA-Z][^<>]*\s(?:property|typeof|about|vocab|itemscope|itemtype)(?:\s*=|[\s>])''', re.I)
JSONLD_SCRIPT = re.compile(rb'''<script[^>]*type\s*=\s*["']?application/ld\+json[^>]*>(.*?)</script>''', re.I | re.S)


def has_embedded_rdf(body):
    """RDFa or Microdata attributes in a tag, or a JSON-LD script block that is JSON at all."""
    if RDFA_OR_MICRODATA.search(body):
        return True
    for m in JSONLD_SCRIPT.finditer(body):
        try:
            json.loads(m.group(1).decode('utf-8', errors='replace'))
            return True
        except ValueError:
            continue
    return False
IRI_FALLBACK = re.compile(r'''<(https?://[^<>"\s{}|\\^`]*)>|"(https?://[^"\s]*)"''')


def main():
    logging.disable(logging.CRITICAL)  # rdflib logs every odd IRI it accepts
    warnings.simplefilter('ignore')
    req = json.load(sys.stdin)
    root, site, contexts = req['dir'], req['site'], req['contexts']
    hosts = {h.lower() for h in site['hosts']}
    prefix = site['path']
    base_url = f"{site['scheme']}://{site['hosts'][0]}{prefix}"

    def url_of(rel):
        return base_url + rel

    def resolve(url):
        """The served file of an in-scope URL (GitHub Pages' rules), or None."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return None
        if parts.scheme not in ('http', 'https') or (parts.hostname or '').lower() not in hosts:
            return None
        path = unquote(parts.path)
        if not path.startswith(prefix) and path + '/' != prefix:
            return None
        rel = path[len(prefix):]
        if '..' in rel.split('/'):
            return None
        full = os.path.join(root, rel)
        if rel == '' or rel.endswith('/'):
            rel = rel + 'index.html'
        elif os.path.isdir(full):
            rel = rel + '/index.html'
        elif not os.path.isfile(full) and os.path.isfile(full + '.html'):
            rel = rel + '.html'
        return rel if os.path.isfile(os.path.join(root, rel)) else None

    def load_context(source_url):
        local = contexts.get(source_url) or contexts.get(source_url.rstrip('/'))
        rel = None if local else resolve(source_url)
        path = local or (os.path.join(root, rel) if rel else None)
        if path is None:
            raise OSError(f'context {source_url} is not available offline')
        with open(path, encoding='utf-8') as f:
            return json.load(f)

    jsonld_context.source_to_json = load_context

    files = {}
    rdf_links = {}
    html_links = {}

    def rdf_entry(rel):
        if rel in files:
            return files[rel]
        media, fmt = RDF_EXT[rel.rsplit('.', 1)[-1].lower()]
        entry = {'type': 'rdf', 'media': media, 'rdflib': None, 'error': None}
        iris = set()
        try:
            g = rdflib.ConjunctiveGraph()
            g.parse(os.path.join(root, rel), format=fmt, publicID=url_of(rel))
            n = 0
            for s, _p, o, _c in g.quads():
                n += 1
                for t in (s, o):
                    if isinstance(t, rdflib.URIRef):
                        iris.add(str(t))
            entry['rdflib'] = n
        except Exception as e:  # noqa: BLE001 — any parser failure is the reference's verdict
            entry['error'] = f'{type(e).__name__}: {str(e)[:200]}'
            with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
                for m in IRI_FALLBACK.finditer(f.read()):
                    iris.add(urljoin(url_of(rel), m.group(1) or m.group(2)))
        files[rel] = entry
        rdf_links[rel] = {r for r in (resolve(i.split('#')[0]) for i in iris) if r and r != rel}
        return entry

    class Links(HTMLParser):
        def __init__(self, base):
            super().__init__(convert_charrefs=True)
            self.base = base
            self.links = []

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == 'base' and a.get('href'):
                self.base = urljoin(self.base, a['href'])
            elif tag in ('a', 'link', 'area') and a.get('href'):
                self.links.append(a['href'])
            elif tag in ('iframe', 'frame') and a.get('src'):
                self.links.append(a['src'])

    def html_entry(rel):
        if rel in files:
            return files[rel]
        with open(os.path.join(root, rel), 'rb') as f:
            body = f.read()
        entry = {'type': 'html', 'media': 'text/html', 'rdflib': None, 'error': None, 'embedded': has_embedded_rdf(body)}
        p = Links(url_of(rel))
        try:
            p.feed(body.decode('utf-8', errors='replace'))
        except Exception:  # noqa: BLE001
            pass
        targets = set()
        for href in p.links:
            try:
                u = urljoin(p.base, href.strip()).split('#')[0]
            except ValueError:
                continue
            r = resolve(u)
            if r and r != rel:
                targets.add(r)
        files[rel] = entry
        html_links[rel] = targets
        return entry

    def kind(rel):
        ext = rel.rsplit('.', 1)[-1].lower() if '.' in os.path.basename(rel) else ''
        if ext in RDF_EXT:
            return 'rdf'
        if ext in HTML_EXT:
            return 'html'
        return None

    def walk(follow_rdf):
        seen = set()
        stack = [r for r in (resolve(s) for s in site['seeds']) if r]
        while stack:
            rel = stack.pop()
            if rel in seen:
                continue
            seen.add(rel)
            k = kind(rel)
            if k == 'html':
                html_entry(rel)
                stack.extend(html_links[rel] - seen)
            elif k == 'rdf':
                rdf_entry(rel)
                if follow_rdf:
                    stack.extend(rdf_links[rel] - seen)
        return seen

    any_links = walk(True)
    html_only = walk(False)
    out = {
        'files': files,
        'reachable_any': sorted(r for r in any_links if kind(r) == 'rdf'),
        'reachable_html': sorted(r for r in html_only if kind(r) == 'rdf'),
        'reachable_embedded': sorted(r for r in any_links if kind(r) == 'html' and files[r].get('embedded')),
    }
    json.dump(out, sys.stdout)


main()
