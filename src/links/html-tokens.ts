// **HTML tokens** as the one-pass link extractor reads them: which elements delimit text blocks, which are inline,
// which switch the tokenizer to raw text, and small helpers over parse5's tag tokens.
import { type Token, TokenizerMode } from 'parse5';

// Elements whose start or end delimits a block of text: a link's context never crosses them.
export const BLOCKS = new Set(
  'address article aside blockquote body caption center dd details dialog dir div dl dt fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html legend li main menu nav ol p pre section summary table tbody td tfoot th thead tr ul'.split(' '),
);
// Inline formatting elements that do not split a word (`W<sup>3</sup>C` is one word).
export const INLINE = new Set('abbr b bdi bdo code data del dfn em font i ins kbd mark q s samp small span strong sub sup time tt u var wbr'.split(' '));
// Elements whose content the tokenizer must read as raw text (as parse5's tree builder switches it) and that we skip.
export const RAW_TEXT: Record<string, number> = {
  script: TokenizerMode.SCRIPT_DATA,
  style: TokenizerMode.RAWTEXT,
  xmp: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
  noembed: TokenizerMode.RAWTEXT,
  textarea: TokenizerMode.RCDATA,
  title: TokenizerMode.RCDATA,
};

/** The value of attribute `name` of a start tag, or null. */
export function attrOf(token: Token.TagToken, name: string): string | null {
  for (const a of token.attrs) if (a.name === name) return a.value;
  return null;
}

/** A start tag's attributes by name (the first of repeated ones). */
export function attrsOf(token: Token.TagToken): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of token.attrs) if (out[a.name] === undefined) out[a.name] = a.value;
  return out;
}

/** `tag.class1.class2` (at most 3 classes) for `domPath`. */
export function withClasses(tag: string, classes: string | undefined): string {
  if (classes === undefined || classes === '') return tag;
  const list = (classes ?? '').split(/\s+/).filter((c) => c !== '').slice(0, 3);
  return list.length === 0 ? tag : `${tag}.${list.join('.')}`;
}

/** Closes the innermost open block `name` (and any unclosed blocks inside it); an unmatched end tag changes nothing. */
export function popBlock(blocks: string[], classes: Array<string | undefined>, name: string): void {
  if (blocks[blocks.length - 1] === name) {
    // The usual case, without setting `length` (which costs more than a pop).
    blocks.pop();
    classes.pop();
    return;
  }
  for (let i = blocks.length - 1; i >= 0; i--) {
    if (blocks[i] === name) {
      blocks.length = i;
      classes.length = i;
      return;
    }
  }
}

/**
 * Whether `s` holds a character of JavaScript's `\s` class (what word splitting splits on), by its code units: asked
 * of every character token of a page, where a regular expression's call cost more than the look.
 */
export function hasSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 32) {
      if (c === 32 || (c >= 9 && c <= 13)) return true;
    } else if (c >= 160 && (c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff)) {
      return true;
    }
  }
  return false;
}

/** Whitespace runs as one space, trimmed. */
export function collapse(s: string): string {
  if (s === '') return s;
  return s.replace(/\s+/g, ' ').trim();
}
