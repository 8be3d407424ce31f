// **Text checks of the JSON-LD fast path**: IRIs, lone surrogates and repeated keys, as jsonld-streaming-parser sees them.

/**
 * jsonld-context-parser's IRI check (`Util.isValidIri`, which the library applies to every IRI it makes:
 * `/^([A-Za-z][A-Za-z0-9+-.]*|_):[^ "<>{}|\\\[\]`#]*(#[^#]*)?$/`) as a loop over the characters: the regular
 * expression took a third of the fast path's time. The tests compare both on generated strings.
 */
export function isValidIri(iri: string): boolean {
  const n = iri.length;
  let i = 0;
  const first = iri.charCodeAt(0);
  if (first === 95) i = 1;
  else if (isAlpha(first)) {
    for (i = 1; i < n; i++) {
      const c = iri.charCodeAt(i);
      if (!isAlpha(c) && !(c >= 48 && c <= 57) && !(c >= 43 && c <= 46)) break;
    }
  } else return false;
  if (iri.charCodeAt(i) !== 58) return false;
  for (i++; i < n; i++) {
    const c = iri.charCodeAt(i);
    if (c === 35) break;
    if (c === 32 || c === 34 || c === 60 || c === 62 || c === 123 || c === 125 || c === 124 || c === 92 || c === 91 || c === 93 || c === 96) return false;
  }
  for (i++; i < n; i++) if (iri.charCodeAt(i) === 35) return false;
  return true;
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** `String.prototype.isWellFormed` (Node 20+; the project's TypeScript lib predates it): no lone surrogate. */
export function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The number of keys of every object in a parsed JSON value, or -1 when a key or string has a lone surrogate (from
 * an escape like `\ud83d` alone: the library's tokenizer decodes a pair of escapes as JSON.parse does, not a lone one).
 */
export function inspectValue(value: unknown): number {
  if (typeof value === 'string') return isWellFormed(value) ? 0 : -1;
  if (typeof value !== 'object' || value === null) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) {
      const k = inspectValue(v);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  for (const key in value) {
    const k = inspectValue((value as Record<string, unknown>)[key]);
    if (k < 0 || !isWellFormed(key)) return -1;
    n += 1 + k;
  }
  return n;
}

/** Keys written in a valid JSON text (strings followed by `:`), repeated ones included. */
export function countKeysInText(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 34) continue;
    let j = i + 1;
    for (let c = text.charCodeAt(j); c !== 34; c = text.charCodeAt(j)) j += c === 92 ? 2 : 1;
    let k = j + 1;
    for (let c = text.charCodeAt(k); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(k)) k++;
    if (text.charCodeAt(k) === 58) n++;
    i = j;
  }
  return n;
}
