// **PageScan** is what the embedded-RDF reader needs of an HTML page's tokens: its RDF script blocks (text and line),
// the first `<base href>`, and whether RDFa or Microdata attributes occur (one tokenizer pass).
import { type Token, Tokenizer, TokenizerMode } from 'parse5';

/** A `<script>` whose type is one of the scan's script types. */
export interface ScriptBlock {
  /** The script's `type`, lower-cased, without parameters (`application/ld+json; charset=utf-8` → `application/ld+json`). */
  type: string;
  /** Its text as the tokenizer reads it (wrappers such as `<!-- … -->` left in). */
  text: string;
  /** The line (1-based) on which its start tag ends: the first line of the text. */
  line: number;
}

/**
 * Attributes that carry RDFa. `rel`/`rev` count only with a CURIE or IRI value (`rel="foaf:knows"`): plain HTML link
 * types (`nofollow`, `stylesheet`) are on nearly every page and would send every page through the RDFa parser.
 */
const RDFA_ATTRIBUTES = new Set(['property', 'typeof', 'about', 'vocab', 'prefix', 'resource']);

/**
 * Collects a page scan from tokens. It is fed by {@link scanPage}'s own pass, or by `extractLinks` (option `scan`)
 * during the pass that reads the links, so that a page with embedded RDF is tokenised once, not twice.
 * `complete` is true only when the pass that fed it read the whole page with the tokenizer states {@link scanPage}
 * uses; a reader given an incomplete scan scans the page itself.
 */
export class PageScan {
  readonly scripts: ScriptBlock[] = [];
  /** The `href` of the first `<base>` that has one (raw, unresolved), or null. */
  baseHref: string | null = null;
  hasRdfa = false;
  hasMicrodata = false;
  /** The whole page was read, with the states scanPage would have used (see the class comment). */
  complete = false;
  /** A feeding pass left scanPage's tokenizer states (see `abandon`): nothing more is collected. */
  abandoned = false;
  /** The script `type`s (lower case, no parameters) whose text is kept. */
  readonly scriptTypes: ReadonlySet<string>;
  #current: ScriptBlock | null = null;

  constructor(scriptTypes: ReadonlySet<string>) {
    this.scriptTypes = scriptTypes;
  }

  /**
   * A start tag, as the tokenizer emits it. Returns the tokenizer state the tag's content must be read in (as
   * parse5's tree builder would switch it), or null to leave the state as it is. `line` is read only for a kept
   * script: the tokenizer's current line, which during `onStartTag` is the line the start tag ends on.
   */
  startTag(token: Token.TagToken, tokenizer: Tokenizer): number | null {
    if (this.abandoned) return null;
    for (const attr of token.attrs) {
      if (RDFA_ATTRIBUTES.has(attr.name) || ((attr.name === 'rel' || attr.name === 'rev') && attr.value.includes(':'))) this.hasRdfa = true;
      else if (attr.name === 'itemscope') this.hasMicrodata = true;
    }
    const name = token.tagName;
    if (name === 'base' && this.baseHref === null) {
      this.baseHref = attrOf(token, 'href');
    } else if (name === 'script') {
      const type = (attrOf(token, 'type') ?? '').split(';', 1)[0]!.trim().toLowerCase();
      this.#current = this.scriptTypes.has(type) ? { type, text: '', line: tokenizer.preprocessor.line } : null;
      return TokenizerMode.SCRIPT_DATA;
    } else if (name === 'style' || name === 'xmp' || name === 'iframe' || name === 'noembed' || name === 'noframes') {
      return TokenizerMode.RAWTEXT;
    } else if (name === 'title' || name === 'textarea') {
      return TokenizerMode.RCDATA;
    } else if (name === 'plaintext') {
      return TokenizerMode.PLAINTEXT;
    }
    return null;
  }

  /** Whether character tokens are wanted now (inside a kept script). */
  get inScript(): boolean {
    return this.#current !== null;
  }

  /** Characters (any of the three character token kinds). */
  text(chars: string): void {
    if (this.#current !== null) this.#current.text += chars;
  }

  endTag(token: Token.TagToken): void {
    if (this.#current !== null && token.tagName === 'script') {
      this.scripts.push(this.#current);
      this.#current = null;
    }
  }

  /** The end of the page: an unclosed script still counts. The scan is complete unless it was abandoned. */
  eof(): void {
    if (this.#current !== null) this.scripts.push(this.#current);
    this.#current = null;
    this.complete = !this.abandoned;
  }

  /** The feeding pass read a tag's content in another state than scanPage would: the scan cannot be trusted. */
  abandon(): void {
    this.abandoned = true;
    this.#current = null;
  }
}

/**
 * One pass of parse5's tokenizer over `html` for its {@link PageScan}: the scripts of `scriptTypes`, the first
 * `<base href>`, RDFa/Microdata attributes. Without source locations (the script's line is the tokenizer's line).
 */
export function scanPage(html: string, scriptTypes: ReadonlySet<string>): PageScan {
  const scan = new PageScan(scriptTypes);
  feedScan(html, scan);
  return scan;
}

/**
 * {@link scanPage}'s pass, feeding a given `scan`; `onStartTag`, when given, sees each start tag first (the benchmarks'
 * minimal loop reads its links in the same pass, bench/lib/minimal-loop.ts).
 */
export function feedScan(html: string, scan: PageScan, onStartTag?: (token: Token.TagToken) => void): void {
  const onText = (token: Token.CharacterToken): void => {
    if (scan.inScript) scan.text(token.chars);
  };
  const tokenizer: Tokenizer = new Tokenizer(
    { sourceCodeLocationInfo: false },
    {
      onStartTag(token) {
        onStartTag?.(token);
        const state = scan.startTag(token, tokenizer);
        if (state !== null) tokenizer.state = state as typeof tokenizer.state;
      },
      onEndTag(token) {
        scan.endTag(token);
      },
      onCharacter: onText,
      onWhitespaceCharacter: onText,
      onNullCharacter: onText,
      onComment() {},
      onDoctype() {},
      onEof() {
        scan.eof();
      },
    },
  );
  tokenizer.write(html, true);
}

function attrOf(token: Token.TagToken, name: string): string | null {
  for (const a of token.attrs) if (a.name === name) return a.value;
  return null;
}
