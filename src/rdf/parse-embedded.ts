// **parseEmbedded** extracts the RDF embedded in an HTML page: JSON-LD (and Turtle-family) scripts, RDFa, Microdata.
import type { Quad } from '@rdfjs/types';
import { MicrodataRdfParser } from 'microdata-rdf-streaming-parser';
import { RdfaParser } from 'rdfa-streaming-parser';
import { PageScan, scanPage } from '../links/page-scan.ts';
import { type ParseConfig, type ParseOptions, resolveParseOptions } from './parse-options.ts';
import { parseRdfText } from './parse-formats.ts';
import { RecoveryLog } from './recovery-log.ts';
import { BlankNodeRelabeller, type Budget, BudgetExceededError, blankNodePrefix, createBudget, runParserInto, type StreamingParser } from './run-parser.ts';
import { TermGuard } from './term-guard.ts';
import type { ParsedDocument, ParseProblem } from './types.ts';

/** Script `type`s whose content is parsed, and the name reported in `embedded`. */
const SCRIPT_TYPES: Readonly<Record<string, { mediaType: string; name: string }>> = {
  'application/ld+json': { mediaType: 'application/ld+json', name: 'jsonld' },
  'text/turtle': { mediaType: 'text/turtle', name: 'turtle' },
  'application/n-triples': { mediaType: 'application/n-triples', name: 'ntriples' },
  'application/n-quads': { mediaType: 'application/n-quads', name: 'nquads' },
  'application/trig': { mediaType: 'application/trig', name: 'trig' },
  'text/n3': { mediaType: 'text/n3', name: 'n3' },
};

/** The script types {@link SCRIPT_TYPES} names, for the page scan (a given scan is read only if made with this set). */
export const SCAN_SCRIPT_TYPES: ReadonlySet<string> = new Set(Object.keys(SCRIPT_TYPES));

/**
 * Cheap looks at the page's text before any tokenizer pass. RDFa attributes (src/links/page-scan.ts): `rel`/`rev`
 * count only with a CURIE or IRI value; plain HTML link types are on nearly every page.
 */
const RDFA_HINT = /\s(?:property|typeof|about|vocab|prefix|resource)\s*=|\s(?:rel|rev)\s*=\s*["']?[^"'\s>]*:/i;
const MICRODATA_HINT = /\sitemscope\b/i;
/** A script whose type is an RDF syntax, or a `<base>` (both need the tokenizer pass to be read exactly). */
const SCRIPT_OR_BASE_HINT = /<script\b[^>]*\btype\s*=\s*["']?\s*(?:application\/(?:ld\+json|n-triples|n-quads|trig)|text\/(?:turtle|n3))|<base\b/i;

/** Which of the three looks find something in a page (each: somewhere in the text). */
export interface EmbeddedHints {
  rdfa: boolean;
  microdata: boolean;
  scriptOrBase: boolean;
}

/**
 * The three looks as one regex, one capture group each, so a page is read once, not three times (four: the page scan
 * asked for the script look too). At any position at most one of them can match (two start with whitespace and
 * different words, one with `<`); searching again from each match's next character finds every position where any
 * matches, as the three regexes would (a match may overlap another: `<script property=… type=…>`).
 */
const HINTS = new RegExp(`(${RDFA_HINT.source})|(${MICRODATA_HINT.source})|(${SCRIPT_OR_BASE_HINT.source})`, 'gi');

/** The three looks one by one, as {@link embeddedHints} must answer them (for its test and bench/micro.ts). */
export const HINT_PATTERNS: Readonly<Record<keyof EmbeddedHints, RegExp>> = { rdfa: RDFA_HINT, microdata: MICRODATA_HINT, scriptOrBase: SCRIPT_OR_BASE_HINT };

/**
 * A cache of one entry, the last page's hints: the crawl asks for them twice per HTML page (`pageScanFor` before the
 * link pass, the embedded-RDF reader after it) with the same text. Keeps that one text alive until the next page's;
 * a hit needs the same string (identity first, then equality), so it can never answer for another page.
 */
const hintsCache: { html: string | null; hints: EmbeddedHints } = { html: null, hints: { rdfa: false, microdata: false, scriptOrBase: false } };

/** What the cheap looks find in `html` (at 32 kB pages the three regex passes were 4% of a bfs crawl's CPU). */
export function embeddedHints(html: string): EmbeddedHints {
  if (hintsCache.html === html) return hintsCache.hints;
  const hints: EmbeddedHints = { rdfa: false, microdata: false, scriptOrBase: false };
  HINTS.lastIndex = 0;
  for (let m = HINTS.exec(html); m !== null; m = HINTS.exec(html)) {
    if (m[1] !== undefined) hints.rdfa = true;
    else if (m[2] !== undefined) hints.microdata = true;
    else hints.scriptOrBase = true;
    if (hints.rdfa && hints.microdata && hints.scriptOrBase) break;
    HINTS.lastIndex = m.index + 1;
  }
  HINTS.lastIndex = 0;
  hintsCache.html = html;
  hintsCache.hints = hints;
  return hints;
}

/**
 * Extracts the RDF embedded in an HTML page: `<script type="application/ld+json">` blocks (and the
 * Turtle-family script types), RDFa, and Microdata. Broken markup (unclosed tags, stray `<`) is tokenised as a
 * browser would (parse5's tokenizer, htmlparser2 inside the RDFa and Microdata parsers), so it never fails the page.
 *
 * Failure policy (our choice): each script block, the RDFa pass and the Microdata pass is all or nothing on its
 * own. A broken block (a JSON syntax error, an unknown remote context) contributes no quads; its problem is listed
 * in `problems` (with `source`, e.g. `jsonld#2`, and the line in the page) and its partial output goes to `partial`.
 * The page itself still succeeds with the good blocks and `error` stays null: the page is HTML and was read; one
 * bad script should not hide the rest of its data. Only the page's limits (max quads, time budget) fail the whole
 * page: then `error` is set, `quads` is empty, and `partial` holds everything parsed so far.
 * Blank nodes are made unique per block, so `_:b0` of two scripts (or two pages) stay distinct.
 */
export async function parseEmbedded(html: string, baseIRI: string, opts?: ParseOptions): Promise<ParsedDocument> {
  const config = resolveParseOptions(opts);
  return parseEmbeddedWith(html, baseIRI, config, createBudget(config.maxQuads, config.timeBudgetMs));
}

/**
 * A page scan for the link extractor to fill (`extractLinks` option `scan`) and {@link parseEmbeddedWith} to read, so
 * that an HTML page is tokenised once; undefined when the page has no RDF script or `<base>` to scan for.
 */
export function pageScanFor(html: string): PageScan | undefined {
  return embeddedHints(html).scriptOrBase ? new PageScan(SCAN_SCRIPT_TYPES) : undefined;
}

/**
 * {@link parseEmbedded} with a resolved config and a budget shared with the caller. `scan`, when given and
 * complete, is the page's scan made during another pass over it (see {@link pageScanFor}); otherwise the page is
 * scanned here when it needs it.
 */
export async function parseEmbeddedWith(html: string, pageIri: string, config: ParseConfig, budget: Budget, scan?: PageScan): Promise<ParsedDocument> {
  // Cheap look first: most pages carry no RDF at all, and a full tokenizer pass over a 10 MB page costs seconds.
  const { rdfa: hintRdfa, microdata: hintMicrodata, scriptOrBase: needsScan } = embeddedHints(html);
  if (!hintRdfa && !hintMicrodata && !needsScan) return { quads: [], error: null, partial: [], embedded: [], problems: [] };
  const given = scan?.complete === true && scan.scriptTypes === SCAN_SCRIPT_TYPES ? scan : null;
  const scanned = needsScan ? (given ?? scanPage(html, SCAN_SCRIPT_TYPES)) : null;
  const hasRdfa = hintRdfa || scanned?.hasRdfa === true;
  const hasMicrodata = hintMicrodata || scanned?.hasMicrodata === true;
  const base = resolveBase(scanned?.baseHref ?? null, pageIri);
  const quads: Quad[] = [];
  const partial: Quad[] = [];
  const problems: ParseProblem[] = [];
  const embedded = new Set<string>();
  let block = 0;
  const counters = new Map<string, number>();
  const recovery = new RecoveryLog();
  const done = (doc: ParsedDocument): ParsedDocument => {
    const summary = recovery.summary();
    if (summary !== null) doc.recovery = summary;
    return doc;
  };

  const accept = (name: string, blockQuads: Quad[]): void => {
    for (const q of blockQuads) quads.push(q);
    if (blockQuads.length > 0) embedded.add(name);
  };
  const failWhole = (problem: ParseProblem, blockQuads: Quad[]): ParsedDocument => ({
    quads: [],
    error: problem,
    partial: [...partial, ...quads, ...blockQuads],
    embedded: [],
    problems,
  });

  for (const script of scanned?.scripts ?? []) {
    const { mediaType, name } = SCRIPT_TYPES[script.type]!;
    block++;
    const n = (counters.get(name) ?? 0) + 1;
    counters.set(name, n);
    const source = `${name}#${n}`;
    const blockNo = block;
    const relabeller = new BlankNodeRelabeller(() => blankNodePrefix(pageIri, blockNo));
    const result = await parseRdfText(unwrapScript(script.text), mediaType, base, config, budget, relabeller);
    recovery.absorb(result.recovery, source, script.line - 1);
    if (result.problem === null) {
      accept(name, result.quads);
      continue;
    }
    const problem: ParseProblem = { ...result.problem, source, line: script.line - 1 + (result.problem.line ?? 1) };
    if (result.budgetExceeded) return done(failWhole(problem, result.quads));
    problems.push(problem);
    for (const q of result.quads) partial.push(q);
  }

  const passes: Array<[string, boolean, () => StreamingParser]> = [
    ['rdfa', hasRdfa, () => new RdfaParser({ baseIRI: pageIri, contentType: 'text/html' }) as unknown as StreamingParser],
    ['microdata', hasMicrodata, () => new MicrodataRdfParser({ baseIRI: pageIri }) as unknown as StreamingParser],
  ];
  for (const [name, present, create] of passes) {
    if (!present) continue;
    block++;
    const blockNo = block;
    const relabeller = new BlankNodeRelabeller(() => blankNodePrefix(pageIri, blockNo));
    // A page of at most config.wholeTextChars is written to the parser at once, as one chunk it was anyway.
    // Its terms pass the guard: RDFa's `lang=""` and `_:` resources read as RDFa 1.1 says, invalid ones repaired or dropped.
    const passQuads: Quad[] = [];
    const passLog = new RecoveryLog();
    const guard = new TermGuard({ add: (q) => passQuads.push(q) }, pageIri, relabeller, passLog, config.strict);
    const run = await runParserInto(create(), html, relabeller, budget, guard, undefined, config.wholeTextChars);
    recovery.absorb(passLog, name);
    const error = run.error ?? guard.failure;
    if (error === null) {
      accept(name, passQuads);
      continue;
    }
    const problem: ParseProblem = { code: 'RDFSCOUT_PARSE_FAILED', message: `Invalid ${name} in the page: ${error.message}`, source: name };
    if (error instanceof BudgetExceededError) return done(failWhole({ ...problem, message: error.message }, passQuads));
    problems.push(problem);
    for (const q of passQuads) partial.push(q);
  }
  return done({ quads, error: null, partial, embedded: [...embedded], problems });
}

/** Strips the `<!-- … -->` and `<![CDATA[ … ]]>` wrappers old pages put around script content. */
function unwrapScript(text: string): string {
  return text
    .replace(/^\s*(?:\/\/\s*)?<!\[CDATA\[/, '')
    .replace(/(?:\/\/\s*)?\]\]>\s*$/, '')
    .replace(/^\s*<!--/, '')
    .replace(/-->\s*$/, '');
}

function resolveBase(href: string | null, pageIri: string): string {
  if (href === null || href.trim() === '') return pageIri;
  try {
    return new URL(href.trim(), pageIri).href;
  } catch {
    return pageIri;
  }
}
