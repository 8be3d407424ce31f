// **IRI repair**: characters an IRI may not hold (RDF 1.1 Turtle §6.5 IRIREF), percent-encoded as rdflib and Jena's
// lenient mode read them, and the text offsets that move with them.

const UTF8 = new TextEncoder();

/** Percent-encodes one character (its UTF-8 bytes), as an IRI may carry it. */
export function percentEncode(char: string): string {
  let out = '';
  for (const byte of UTF8.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** `raw` with the characters at the offsets `repairs` (ascending) percent-encoded. */
export function applyRepairs(raw: string, repairs: readonly number[]): string {
  if (repairs.length === 0) return raw;
  const parts: string[] = [];
  let from = 0;
  for (const at of repairs) {
    parts.push(raw.slice(from, at), percentEncode(raw[at]!));
    from = at + 1;
  }
  parts.push(raw.slice(from));
  return parts.join('');
}

/** Maps an offset in `raw` to the same place in `applyRepairs(raw, repairs)`: each repair before it adds its encoding's length − 1. */
export function shiftOffsets(repairs: readonly number[], raw: string): (offset: number) => number {
  const added: number[] = [];
  let sum = 0;
  for (const r of repairs) {
    sum += percentEncode(raw[r]!).length - 1;
    added.push(sum);
  }
  return (offset: number): number => {
    let lo = 0;
    let hi = repairs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (repairs[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return offset + (lo === 0 ? 0 : added[lo - 1]!);
  };
}
