// **StatementScanner** cuts Turtle-family text at statement boundaries and repairs IRIs that hold illegal characters.
//
// Lenient reading (what rdflib and Jena's lenient mode do for IRIs; statement-level recovery is ours): a lexer pass
// that knows strings, IRIs, comments and brackets, so that the parser can be given whole statements and restarted
// after one that fails. It never changes the number of lines (an IRI's repair only percent-encodes characters).
import { applyRepairs, shiftOffsets } from './iri-repair.ts';

/** Which grammar's boundaries to find: TriG graph blocks can be cut inside; N3 formulas (`{…}`) never are. */
export type ScanMode = 'turtle' | 'trig' | 'n3' | 'line';

/** One statement of a chunk: [start, end) in the chunk's text, and the TriG graph block open before and after it. */
export interface Statement {
  start: number;
  end: number;
  /** The graph block's header (e.g. `GRAPH <g> {`, on one line) open at the statement's start, or null. */
  graphBefore: string | null;
  /** The graph block open after the statement (it must be closed with ` }` to parse the statement alone). */
  graphAfter: string | null;
}

/** A piece of text made only of whole statements (the last one of a document may be cut off). */
export interface Chunk {
  text: string;
  /** Line of the chunk's first character in the document (1-based). */
  line: number;
  statements: Statement[];
  /** IRIs whose illegal characters were percent-encoded in this chunk. */
  repairedIris: number;
}

/** The lexer's states: between tokens, in a comment, a short or long string, an IRI. */
const State = { Default: 0, Comment: 1, Short: 2, Long: 3, Iri: 4 } as const;
type State = (typeof State)[keyof typeof State];

/** Characters the default state stops at; everything else is copied as it is. */
const DEFAULT_STOP = /[#"'<\\[\](){}.]/g;
/** N-Triples and N-Quads: one statement a line (RDF 1.1 N-Triples §2), so a line end is the boundary, not a dot. */
const LINE_STOP = /[#"'<\\\n]/g;
const LINE_END = /[\r\n]/g;
const SHORT_DOUBLE = /["\\\r\n]/g;
const SHORT_SINGLE = /['\\\r\n]/g;
/** IRIREF: what ends it, what may not be in it (percent-encoded), and escapes (RDF 1.1 Turtle §6.5 IRIREF). */
const IRI_STOP = /[>\x00-\x20<"{}|^`\\]/g;
const SPARQL_DIRECTIVE = /\s*(?:PREFIX|BASE)\b(?!:)/iy;
/**
 * Scans text pushed piece by piece; {@link take} hands out chunks that end at a statement boundary once they are at
 * least `minChars` long (all that is left at the end). A boundary is a `.` outside strings, IRIs, comments and
 * brackets followed by white space, a comment or the end; a SPARQL-style `PREFIX`/`BASE` ends after its IRI; a TriG
 * graph block's `}` ends its last statement. A text with no boundary is handed out whole at the end.
 */
export class StatementScanner {
  readonly #mode: ScanMode;
  #buffer = '';
  #pos = 0;
  #line = 1;
  #state: State = State.Default;
  #quote = '';
  #depth = 0;
  #braces = 0;
  #iriStart = 0;
  #iriRepairStart = 0;
  #stmtStart = 0;
  /** Inside a TriG graph block; its header when it can be repeated (else the block is never cut inside). */
  #inGraph = false;
  #graph: string | null = null;
  #ended = false;
  /** Offsets of the characters to percent-encode, in order. */
  #repairs: number[] = [];
  #repairedIris = 0;
  #statements: Statement[] = [];

  constructor(mode: ScanMode) {
    this.#mode = mode;
  }

  push(text: string): void {
    this.#buffer += text;
    this.#scan();
  }

  /** No more text will come. */
  end(): void {
    this.#ended = true;
    this.#scan();
  }

  /** The next chunk of at least `minChars` characters that ends at a boundary, or (after `end()`) what is left. */
  take(minChars: number): Chunk | null {
    const last = this.#statements.at(-1);
    if (this.#ended) {
      if (this.#buffer.length === 0) return null;
      const from = last?.end ?? 0;
      const graphBefore = last === undefined ? this.#chunkGraph : last.graphAfter;
      const tail = this.#buffer.length > from ? [{ start: from, end: this.#buffer.length, graphBefore, graphAfter: null }] : [];
      return this.#cut(this.#buffer.length, [...this.#statements, ...tail]);
    }
    if (last === undefined || last.end < minChars) return null;
    return this.#cut(last.end, this.#statements);
  }

  /** The graph block open where the buffer starts (the chunk handed out before ended inside it). */
  #chunkGraph: string | null = null;

  #cut(end: number, statements: Statement[]): Chunk {
    const raw = this.#buffer.slice(0, end);
    let used = 0;
    while (used < this.#repairs.length && this.#repairs[used]! < end) used++;
    const repairs = this.#repairs.slice(0, used);
    const text = applyRepairs(raw, repairs);
    // Offsets of statements move with the characters each repair added (2 or more per character).
    const shift = shiftOffsets(repairs, raw);
    const shifted = used === 0 ? statements : statements.map((st) => ({ ...st, start: shift(st.start), end: shift(st.end) }));
    const chunk: Chunk = { text, line: this.#line, statements: shifted, repairedIris: this.#repairedIris };
    this.#line += countLines(raw);
    const last = statements.at(-1);
    if (last !== undefined) this.#chunkGraph = last.graphAfter;
    this.#buffer = this.#buffer.slice(end);
    this.#pos -= end;
    this.#iriStart -= end;
    this.#stmtStart -= end;
    this.#repairs = this.#repairs.slice(used).map((r) => r - end);
    this.#iriRepairStart = Math.max(0, this.#iriRepairStart - used);
    this.#statements = [];
    this.#repairedIris = 0;
    return chunk;
  }

  #boundary(end: number): void {
    const last = this.#statements.at(-1);
    const before = last === undefined ? this.#chunkGraph : last.graphAfter;
    this.#statements.push({ start: this.#statements.at(-1)?.end ?? 0, end, graphBefore: before, graphAfter: this.#graph });
    this.#stmtStart = end;
  }

  /** Scans as far as the text allows (it waits for the characters a decision needs, until `end()`). */
  #scan(): void {
    const b = this.#buffer;
    const n = b.length;
    const final = this.#ended;
    while (this.#pos < n) {
      switch (this.#state) {
        case State.Comment: {
          LINE_END.lastIndex = this.#pos;
          const nl = LINE_END.exec(b);
          if (nl === null) {
            this.#pos = n;
            return;
          }
          this.#pos = nl.index + 1;
          this.#state = State.Default;
          if (this.#mode === 'line') this.#boundary(this.#pos);
          break;
        }
        case State.Short: {
          const stop = this.#quote === '"' ? SHORT_DOUBLE : SHORT_SINGLE;
          stop.lastIndex = this.#pos;
          const m = stop.exec(b);
          if (m === null) {
            this.#pos = n;
            return;
          }
          const c = m[0];
          if (c === '\\') {
            if (m.index + 1 >= n && !final) {
              this.#pos = m.index;
              return;
            }
            this.#pos = m.index + 2;
          } else {
            this.#pos = m.index + 1; // the closing quote, or a line end: a short string never spans lines
            this.#state = State.Default;
            // A string cut by its line's end is an error whatever comes next: its statement ends here, so that
            // the next line's statement is read on its own (not swallowed up to the next dot).
            if ((c === '\n' || c === '\r') && this.#depth === 0 && this.#braces === 0 && !(this.#inGraph && this.#graph === null)) this.#boundary(this.#pos);
          }
          break;
        }
        case State.Long: {
          const q = this.#quote;
          let i = this.#pos;
          let closed = false;
          while (i < n) {
            const c = b[i];
            if (c === '\\') {
              if (i + 1 >= n && !final) break;
              i += 2;
              continue;
            }
            if (c === q) {
              if (i + 2 >= n && !final) break;
              if (b[i + 1] === q && b[i + 2] === q) {
                closed = true;
                break;
              }
            }
            i++;
          }
          if (!closed) {
            this.#pos = final ? n : i;
            return;
          }
          this.#pos = i + 3;
          this.#state = State.Default;
          break;
        }
        case State.Iri: {
          IRI_STOP.lastIndex = this.#pos;
          let m = IRI_STOP.exec(b);
          for (; m !== null; m = IRI_STOP.exec(b)) {
            const c = m[0];
            if (c === '>' || c === '\n' || c === '\r') break;
            if (c === '\\') {
              const next = b[m.index + 1];
              if (next === undefined && !final) break;
              if (next === 'u' || next === 'U') continue; // an escape the parser reads (and checks)
            }
            this.#repairs.push(m.index);
          }
          if (m === null || (m[0] === '\\' && !final)) {
            if (!final) {
              this.#pos = m === null ? n : m.index;
              return;
            }
          }
          if (m !== null && m[0] === '>') {
            if (this.#repairs.length > this.#iriRepairStart) this.#repairedIris++;
            this.#pos = m.index + 1;
            this.#state = State.Default;
            if (this.#depth === 0 && this.#braces === 0 && this.#mode !== 'line' && startsSparqlDirective(b, this.#stmtStart, this.#iriStart)) this.#boundary(this.#pos);
          } else {
            // A line end (or the text's end) before `>`: not an IRI after all; the parser will say what it is.
            this.#repairs.length = this.#iriRepairStart;
            this.#pos = this.#iriStart + 1;
            this.#state = State.Default;
          }
          break;
        }
        default: {
          const stops = this.#mode === 'line' ? LINE_STOP : DEFAULT_STOP;
          stops.lastIndex = this.#pos;
          const m = stops.exec(b);
          if (m === null) {
            this.#pos = n;
            return;
          }
          const i = m.index;
          if (i + 3 > n && !final) {
            this.#pos = i; // the decision needs the next characters
            return;
          }
          this.#pos = i + 1;
          this.#default(m[0], i, b);
        }
      }
    }
  }

  #default(c: string, i: number, b: string): void {
    switch (c) {
      case '#':
        this.#state = State.Comment;
        return;
      case '\n':
        this.#boundary(i + 1); // line mode only
        return;
      case '"':
      case "'":
        this.#quote = c;
        if (this.#mode !== 'line' && b[i + 1] === c && b[i + 2] === c) {
          this.#state = State.Long;
          this.#pos = i + 3;
        } else this.#state = State.Short;
        return;
      case '\\':
        this.#pos = i + 2; // an escaped character of a local name (`ex:a\.b`)
        return;
      case '<': {
        const next = b[i + 1];
        if (next === '<') this.#pos = i + 2; // a quoted triple (RDF-star)
        else if (!(this.#mode === 'n3' && next === '=')) {
          this.#state = State.Iri;
          this.#iriStart = i;
          this.#iriRepairStart = this.#repairs.length;
        }
        return;
      }
      case '[':
      case '(':
        this.#depth++;
        return;
      case ']':
      case ')':
        if (this.#depth > 0) this.#depth--;
        return;
      case '{':
        if (this.#mode === 'trig' && this.#depth === 0 && !this.#inGraph) {
          this.#inGraph = true;
          this.#graph = graphHeader(b.slice(this.#stmtStart, i + 1));
        } else this.#braces++;
        return;
      case '}':
        if (this.#mode === 'trig' && this.#depth === 0 && this.#braces === 0 && this.#inGraph) {
          this.#inGraph = false;
          this.#graph = null;
          this.#boundary(i + 1);
        } else if (this.#braces > 0) this.#braces--;
        return;
      case '.': {
        if (this.#depth !== 0 || this.#braces !== 0 || (this.#inGraph && this.#graph === null)) return;
        const next = b[i + 1];
        if (next === undefined || next === ' ' || next === '\t' || next === '\n' || next === '\r' || next === '#') this.#boundary(i + 1);
        return;
      }
      default:
    }
  }
}

/** Whether the statement that starts at `from` is a SPARQL-style PREFIX or BASE whose IRI starts at `iriStart`. */
function startsSparqlDirective(b: string, from: number, iriStart: number): boolean {
  SPARQL_DIRECTIVE.lastIndex = from;
  return SPARQL_DIRECTIVE.test(b) && !b.slice(from, iriStart).includes('#');
}

/**
 * A TriG graph block's header (the text of its statement up to its `{`) on one line, so that it can open the block
 * again before a later chunk without moving its lines; a header with a comment is not repeated (null: the block is
 * not cut).
 */
function graphHeader(text: string): string | null {
  const header = text.trim();
  if (header.replace(/<[^>]*>/g, '').includes('#')) return null;
  return header.replace(/[\r\n]+/g, ' ');
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
