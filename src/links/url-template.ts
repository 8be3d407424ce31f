// **urlTemplate**: the pattern of a URL a predictor can know before fetching it (thesis §5 r1/r2, generalised).

/**
 * The URL template of a URL (thesis §5's r1/r2 generalised): host; the last path segment always becomes `{x}` (its
 * extension kept), other segments become `{x}` when they contain a digit; query values become `{x}` (names kept, in
 * order). `/people/mary-walsh-3/foaf.rdf` → `/people/{x}/{x}.rdf`; `/dataset?tags=ontologies&page=2` →
 * `/{x}?tags={x}&page={x}`. The template is all a pattern predictor can know of a URL it has not fetched.
 */
export function urlTemplate(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const segs = u.pathname.split('/').filter((s) => s !== '');
  const trailing = u.pathname.endsWith('/') && segs.length > 0;
  const out = segs.map((s, i) => {
    if (i === segs.length - 1 && !trailing) {
      const ext = /\.([a-z0-9]{1,8})$/i.exec(s)?.[1];
      return ext ? `{x}.${ext.toLowerCase()}` : '{x}';
    }
    return /\d/.test(s) ? '{x}' : s;
  });
  const query = [...u.searchParams.keys()].map((k) => `${k}={x}`).join('&');
  return `${u.host}/${out.join('/')}${trailing ? '/' : ''}${query ? `?${query}` : ''}`;
}
