// **parseEmbedded** extracts the RDF embedded in an HTML page: JSON-LD (and Turtle-family) scripts, RDFa, Microdata.
import type { Quad } from '@rdfjs/types';
import { MicrodataRdfParser } from 'microdata-rdf-streaming-parser';
import { type Token, Tokenizer, TokenizerMode } from 'parse5';
import { RdfaParser } from 'rdfa-streaming-parser';
import { type ParseConfig, type ParseOptions, resolveParseOptions } from './parse-options.ts';
import { parseRdfText } from './parse-formats.ts';
import { BlankNodeRelabeller, type Budget, BudgetExceededError, blankNodePrefix, createBudget, runParser, type StreamingParser } from './run-parser.ts';
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

/**
 * Attributes that carry RDFa (an HTML page without any of them is not given to the RDFa parser). `rel`/`rev` count
 * only with a CURIE or IRI value (`rel="foaf:knows"`): plain HTML link types (`nofollow`, `stylesheet`, `alternate`)
 * are on nearly every page and would send every page through a second full parse for at most an xhv: triple.
 */
const RDFA_ATTRIBUTES = new Set(['property', 'typeof', 'about', 'vocab', 'prefix', 'resource']);
const RDFA_HINT = /\s(?:property|typeof|about|vocab|prefix|resource)\s*=|\s(?:rel|rev)\s*=\s*["']?[^"'\s>]*:/i;
const MICRODATA_HINT = /\sitemscope\b/i;
/** A script whose type is an RDF syntax, or a `<base>` (both need the tokenizer pass to be read exactly). */
const SCRIPT_OR_BASE_HINT = /<script\b[^>]*\btype\s*=\s*["']?\s*(?:application\/(?:ld\+json|n-triples|n-quads|trig)|text\/(?:turtle|n3))|<base\b/i;

interface ScriptBlock {
  mediaType: string;
  name: string;
  text: string;
  line: number;
}

interface PageScan {
  scripts: ScriptBlock[];
  baseHref: string | null;
  hasRdfa: boolean;
  hasMicrodata: boolean;
}

/**
 * Extracts the RDF embedded in an HTML page (issue 2): `<script type="application/ld+json">` blocks (and the
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

/** {@link parseEmbedded} with a resolved config and a budget shared with the caller. */
export async function parseEmbeddedWith(html: string, pageIri: string, config: ParseConfig, budget: Budget): Promise<ParsedDocument> {
  // Cheap look first: most pages carry no RDF at all, and a full tokenizer pass over a 10 MB page costs seconds.
  const hasRdfa = RDFA_HINT.test(html);
  const hasMicrodata = MICRODATA_HINT.test(html);
  const needsScan = SCRIPT_OR_BASE_HINT.test(html);
  if (!hasRdfa && !hasMicrodata && !needsScan) return { quads: [], error: null, partial: [], embedded: [], problems: [] };
  const scan = needsScan ? scanPage(html) : { scripts: [], baseHref: null, hasRdfa: false, hasMicrodata: false };
  scan.hasRdfa ||= hasRdfa;
  scan.hasMicrodata ||= hasMicrodata;
  const base = resolveBase(scan.baseHref, pageIri);
  const quads: Quad[] = [];
  const partial: Quad[] = [];
  const problems: ParseProblem[] = [];
  const embedded = new Set<string>();
  let block = 0;
  const counters = new Map<string, number>();

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

  for (const script of scan.scripts) {
    block++;
    const n = (counters.get(script.name) ?? 0) + 1;
    counters.set(script.name, n);
    const source = `${script.name}#${n}`;
    const blockNo = block;
    const relabeller = new BlankNodeRelabeller(() => blankNodePrefix(pageIri, blockNo));
    const result = await parseRdfText(unwrapScript(script.text), script.mediaType, base, config, budget, relabeller);
    if (result.problem === null) {
      accept(script.name, result.quads);
      continue;
    }
    const problem: ParseProblem = { ...result.problem, source, line: script.line - 1 + (result.problem.line ?? 1) };
    if (result.budgetExceeded) return failWhole(problem, result.quads);
    problems.push(problem);
    for (const q of result.quads) partial.push(q);
  }

  const passes: Array<[string, boolean, () => StreamingParser]> = [
    ['rdfa', scan.hasRdfa, () => new RdfaParser({ baseIRI: pageIri, contentType: 'text/html' }) as unknown as StreamingParser],
    ['microdata', scan.hasMicrodata, () => new MicrodataRdfParser({ baseIRI: pageIri }) as unknown as StreamingParser],
  ];
  for (const [name, present, create] of passes) {
    if (!present) continue;
    block++;
    const blockNo = block;
    const relabeller = new BlankNodeRelabeller(() => blankNodePrefix(pageIri, blockNo));
    // A page of at most config.wholeTextChars is written to the parser at once (issue 18), as one chunk it was anyway.
    const { quads: passQuads, error } = await runParser(create(), html, relabeller, budget, config.wholeTextChars);
    if (error === null) {
      accept(name, passQuads);
      continue;
    }
    const problem: ParseProblem = { code: 'RDFSCOUT_PARSE_FAILED', message: `Invalid ${name} in the page: ${error.message}`, source: name };
    if (error instanceof BudgetExceededError) return failWhole({ ...problem, message: error.message }, passQuads);
    problems.push(problem);
    for (const q of passQuads) partial.push(q);
  }
  return { quads, error: null, partial, embedded: [...embedded], problems };
}

/** One pass of parse5's tokenizer: the RDF script blocks, `<base href>`, and whether RDFa/Microdata attributes occur. */
function scanPage(html: string): PageScan {
  const scan: PageScan = { scripts: [], baseHref: null, hasRdfa: false, hasMicrodata: false };
  let current: ScriptBlock | null = null;
  const onText = (token: Token.CharacterToken): void => {
    if (current !== null) current.text += token.chars;
  };
  const tokenizer: Tokenizer = new Tokenizer(
    { sourceCodeLocationInfo: true },
    {
      onStartTag(token: Token.TagToken) {
        for (const attr of token.attrs) {
          if (RDFA_ATTRIBUTES.has(attr.name) || ((attr.name === 'rel' || attr.name === 'rev') && attr.value.includes(':'))) scan.hasRdfa = true;
          else if (attr.name === 'itemscope') scan.hasMicrodata = true;
        }
        const name = token.tagName;
        if (name === 'base' && scan.baseHref === null) {
          scan.baseHref = token.attrs.find((a) => a.name === 'href')?.value ?? null;
        } else if (name === 'script') {
          tokenizer.state = TokenizerMode.SCRIPT_DATA;
          const type = (token.attrs.find((a) => a.name === 'type')?.value ?? '').split(';', 1)[0]!.trim().toLowerCase();
          const known = SCRIPT_TYPES[type];
          current = known === undefined ? null : { ...known, text: '', line: token.location?.endLine ?? 1 };
        } else if (name === 'style' || name === 'xmp' || name === 'iframe' || name === 'noembed' || name === 'noframes') {
          tokenizer.state = TokenizerMode.RAWTEXT;
        } else if (name === 'title' || name === 'textarea') {
          tokenizer.state = TokenizerMode.RCDATA;
        } else if (name === 'plaintext') {
          tokenizer.state = TokenizerMode.PLAINTEXT;
        }
      },
      onEndTag(token: Token.TagToken) {
        if (token.tagName === 'script' && current !== null) {
          scan.scripts.push(current);
          current = null;
        }
      },
      onCharacter: onText,
      onWhitespaceCharacter: onText,
      onNullCharacter: onText,
      onComment() {},
      onDoctype() {},
      onEof() {
        if (current !== null) scan.scripts.push(current); // an unclosed script still counts
        current = null;
      },
    },
  );
  tokenizer.write(html, true);
  return scan;
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
