// **JSON-LD as a stream**: what lets jsonld-streaming-parser emit a large document's quads as it reads them, and forget the nodes it has read.
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'rdf-data-factory';
import type { QuadTarget } from './run-parser.ts';

const factory = new DataFactory();

/**
 * The name given to a top-level `@graph` that has none. Its quads land in this graph, which {@link RootGraphTarget}
 * turns back into the default graph; it must never be a subject or an object.
 */
export const ROOT_GRAPH_IRI = 'urn:x-rdfscout:streamed-root-graph';

/** Characters of a document's start read at most to find where its `@graph` key begins (a large inline `@context` gives up). */
const MAX_HEAD_CHARS = 256 * 1024;

/**
 * Why: jsonld-streaming-parser cannot know whether a top-level `{"@context": …, "@graph": [ … ]}` is the default
 * graph until the object ends (an `@id` or another property after `@graph` would make it a named graph), so it holds
 * every quad of the `@graph` until then, even with the streaming profile: the usual shape of a large JSON-LD file
 *. This inserts `"@id": "<ROOT_GRAPH_IRI>",` before that `@graph` key when it is the first key
 * or follows `@context`; the graph's quads then come out as they are parsed, in that named graph.
 *
 * It changes nothing else when the object has no other key: a node object with only `@id` and `@graph` states no
 * triple of its own. When it has one, the result differs and shows it: a later `@id` is a JSON-LD error (colliding
 * keywords), another property gets the IRI as its subject ({@link RootGraphTarget.diverged}); the caller then
 * parses the document again without this. Any other document start is passed through untouched.
 */
export async function* nameRootGraph(input: AsyncIterable<string>): AsyncGenerator<string> {
  let head = '';
  let decided = false;
  for await (const chunk of input) {
    if (decided) {
      yield chunk;
      continue;
    }
    head += chunk;
    const at = findRootGraphKey(head);
    if (at === 'more' && head.length < MAX_HEAD_CHARS) continue;
    decided = true;
    yield typeof at === 'number' ? `${head.slice(0, at)}"@id":"${ROOT_GRAPH_IRI}",${head.slice(at)}` : head;
    head = '';
  }
  if (!decided && head !== '') yield head;
}

/**
 * Where the top-level object's `@graph` key starts, if that key comes first or right after `@context`; `'none'`
 * otherwise; `'more'` when `text` ends before that is known.
 */
export function findRootGraphKey(text: string): number | 'none' | 'more' {
  let i = skipSpace(text, 0);
  if (i >= text.length) return 'more';
  if (text[i] !== '{') return 'none';
  i = skipSpace(text, i + 1);
  let key = readString(text, i);
  if (key === 'more' || key === 'none') return key;
  if (key.value === '@context') {
    i = skipSpace(text, key.end);
    if (i >= text.length) return 'more';
    if (text[i] !== ':') return 'none';
    const end = skipValue(text, skipSpace(text, i + 1));
    if (end === 'more' || end === 'none') return end;
    i = skipSpace(text, end);
    if (i >= text.length) return 'more';
    if (text[i] !== ',') return 'none';
    i = skipSpace(text, i + 1);
    key = readString(text, i);
    if (key === 'more' || key === 'none') return key;
  }
  return key.value === '@graph' ? i : 'none';
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  return i;
}

/** The JSON string starting at `i` (its raw text between the quotes) and the index after it. */
function readString(text: string, i: number): { value: string; end: number } | 'none' | 'more' {
  if (i >= text.length) return 'more';
  if (text[i] !== '"') return 'none';
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return { value: text.slice(i + 1, j), end: j + 1 };
  }
  return 'more';
}

/** The index after the JSON value starting at `i` (strings, objects and arrays skipped as a whole). */
function skipValue(text: string, i: number): number | 'none' | 'more' {
  if (i >= text.length) return 'more';
  if (text[i] === '"') {
    const s = readString(text, i);
    return typeof s === 'object' ? s.end : s;
  }
  if (text[i] !== '{' && text[i] !== '[') {
    const m = /^[-+.\w]+/.exec(text.slice(i, i + 64)); // a number, true, false or null
    if (m === null) return 'none';
    return i + m[0].length < text.length ? i + m[0].length : 'more';
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '"') {
      const s = readString(text, j);
      if (typeof s !== 'object') return s;
      j = s.end - 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return 'more';
}

/**
 * Passes quads on to `target` with the root graph's name turned back into the default graph, and notices when the
 * name shows up as a term of a triple (the top-level object had properties of its own: see {@link nameRootGraph}).
 * From then on nothing more is passed on; the caller restarts the target and parses the document again.
 */
export class RootGraphTarget implements QuadTarget {
  readonly #target: QuadTarget;
  #diverged = false;

  constructor(target: QuadTarget) {
    this.#target = target;
  }

  /** Whether the root graph's name was seen as a subject or an object. */
  get diverged(): boolean {
    return this.#diverged;
  }

  add(q: Quad): void {
    if (this.#diverged) return;
    if (q.subject.value === ROOT_GRAPH_IRI || q.object.value === ROOT_GRAPH_IRI) {
      this.#diverged = true;
      return;
    }
    this.#target.add(q.graph.termType === 'NamedNode' && q.graph.value === ROOT_GRAPH_IRI ? factory.quad(q.subject, q.predicate, q.object) : q);
  }

  drained(): Promise<void> {
    return this.#target.drained?.() ?? Promise.resolve();
  }
}

/** The part of @bergos/jsonparse (inside jsonld-streaming-parser) that {@link releaseReadNodes} relies on. */
interface JsonTokenizer {
  stack: Array<{ key: unknown }>;
  value: unknown;
  key: unknown;
  onValue: (value: unknown) => void;
}

/**
 * Why: the JSON tokenizer inside jsonld-streaming-parser (@bergos/jsonparse) also builds the whole document as
 * JavaScript objects, each value kept in its parent, so a streamed parse still held ~25 MB for a 1 MB `@graph`
 *. This drops each element of the top-level array or of the top-level `@graph` from its parent
 * once the parser has been handed it: the parser keeps its own reference for as long as it needs it (its jobs
 * capture the value; it reads nothing back from the tree but the keys). Returns false, changing nothing, when the
 * parser is not built as expected (another version).
 */
export function releaseReadNodes(parser: object): boolean {
  const tokenizer = (parser as { jsonParser?: Partial<JsonTokenizer> }).jsonParser;
  if (tokenizer === undefined || !Array.isArray(tokenizer.stack) || typeof tokenizer.onValue !== 'function') return false;
  const t = tokenizer as JsonTokenizer;
  const handle = t.onValue;
  t.onValue = (value: unknown): void => {
    handle.call(t, value);
    if (!Array.isArray(t.value) || typeof t.key !== 'number') return;
    const depth = t.stack.length;
    if (depth === 1 || (depth === 2 && t.stack[1]?.key === '@graph')) t.value[t.key] = undefined;
  };
  return true;
}
