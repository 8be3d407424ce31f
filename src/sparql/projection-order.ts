// **projectionOrder**: the order of a SELECT's result columns: the projection's, or for SELECT * first appearance in the query.

/**
 * The result variables of `sparql` in the order a reader expects. An explicit projection keeps the engine's order
 * (the projection's). For `SELECT *` SPARQL 1.1 §18.2.1 leaves the order open and Comunica's is its own (CSV came
 * out `o,p,s`); here it is the order in which the variables first appear in the query text, comments, strings and
 * IRIs skipped. Variables the text does not show (none expected) keep their place after the others.
 */
export function projectionOrder(sparql: string, variables: readonly string[]): string[] {
  const tokens = scanTokens(sparql);
  const firstSelect = tokens.findIndex((t) => t.kind === 'word' && t.text.toUpperCase() === 'SELECT');
  if (firstSelect < 0) return [...variables];
  let k = firstSelect + 1;
  while (tokens[k]?.kind === 'word' && /^(DISTINCT|REDUCED)$/i.test(tokens[k]?.text ?? '')) k++;
  if (tokens[k]?.text !== '*') return [...variables];
  const first = new Map<string, number>();
  tokens.forEach((t, i) => {
    if (t.kind === 'var' && !first.has(t.text)) first.set(t.text, i);
  });
  const at = (v: string): number => first.get(v) ?? Number.POSITIVE_INFINITY;
  return variables.map((v, i) => ({ v, i })).sort((a, b) => at(a.v) - at(b.v) || a.i - b.i).map((x) => x.v);
}

interface Token {
  kind: 'word' | 'var' | 'other';
  text: string;
}

/** Words, variables (without ? or $) and single punctuation characters of a query; comments, strings and IRIs dropped. */
function scanTokens(q: string): Token[] {
  const out: Token[] = [];
  const name = /[A-Za-z0-9_\u00B7\u00C0-\uFFFF]/;
  for (let i = 0; i < q.length; ) {
    const c = q[i] as string;
    if (/\s/.test(c)) i++;
    else if (c === '#') i = nextLine(q, i);
    else if (c === '"' || c === "'") i = skipString(q, i);
    else if (c === '<' && /^<[^<>"{}|^`\\\s]*>/.test(q.slice(i, i + 4096))) i = q.indexOf('>', i) + 1;
    else if ((c === '?' || c === '$') && name.test(q[i + 1] ?? '')) {
      let j = i + 1;
      while (j < q.length && name.test(q[j] as string)) j++;
      out.push({ kind: 'var', text: q.slice(i + 1, j) });
      i = j;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < q.length && /[A-Za-z0-9_:.-]/.test(q[j] as string)) j++;
      out.push({ kind: 'word', text: q.slice(i, j) });
      i = j;
    } else {
      out.push({ kind: 'other', text: c });
      i++;
    }
  }
  return out;
}

function nextLine(q: string, i: number): number {
  const nl = q.indexOf('\n', i);
  return nl < 0 ? q.length : nl + 1;
}

/** The index after the string literal starting at `i` (short or long form, with escapes). */
function skipString(q: string, i: number): number {
  const quote = q[i] as string;
  const long = q.startsWith(quote.repeat(3), i);
  const end = long ? quote.repeat(3) : quote;
  for (let j = i + end.length; j < q.length; j++) {
    if (q[j] === '\\') j++;
    else if (q.startsWith(end, j)) return j + end.length;
  }
  return q.length;
}
