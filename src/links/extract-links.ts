// **extractLinks** reads an HTML page once, with parse5's tokenizer, into its links with their features (thesis §3).
import { type Token, Tokenizer, type TokenHandler, TokenizerMode } from 'parse5';
import { attrOf, attrsOf, BLOCKS, collapse, hasSpace, INLINE, popBlock, RAW_TEXT, withClasses } from './html-tokens.ts';
import { scanHrefs } from './href-scan.ts';
import { basePrefixOf, normalizeUrl, resolvePlainPath } from './normalize-url.ts';
import { PendingContexts } from './pending-contexts.ts';
import type { BadLink, ExtractedLinks, ExtractLinksOptions, LinkFeatures, LinkTag } from './types.ts';

export type { ExtractedLinks, ExtractLinksOptions } from './types.ts';

/** How many links past the cap a document's reading counts at most: a page with a million links costs no more than its start. */
export const BEYOND_COUNTED = 10_000;

interface OpenLink {
  features: LinkFeatures;
  before: string[];
  anchorWords: string[];
  imgAlt: string;
}

const MAX_ANCHOR_WORDS = 100;

/**
 * Extracts the links of an HTML page: `<a>`, `<link>`, `<area>` (href), `<frame>`, `<iframe>` (src), honouring
 * `<base href>` from where it appears. For each link: anchor text (or the alt of an image inside, or an area's alt),
 * `title`, `type`, `rel`, and `context`: up to `contextWords` words on each side of the link within its innermost
 * block element (text of nested blocks does not count; the anchor's own words are not part of its context).
 * Links to the page itself (`#top`, `href=""`) are skipped. Linear in the page size; once `maxLinks` links, the
 * text and `maxBeyond` links past the cap are complete the rest of the page is not read, so a page with a million
 * links costs no more than its start.
 */
export function extractLinks(html: string, pageUrl: string, opts: ExtractLinksOptions = {}): ExtractedLinks {
  const maxLinks = opts.maxLinks ?? 500;
  const maxBeyond = opts.maxBeyond ?? BEYOND_COUNTED;
  let beyond = 0;
  const mode = opts.normalize ?? 'standard';
  const ctxWords = opts.contextWords ?? 20;
  const maxText = opts.maxTextChars ?? 100_000;
  const normOpts = { mode, maxLength: opts.maxUrlLength ?? 2048 };
  const scan = opts.scan !== undefined && !opts.scan.abandoned ? opts.scan : null;
  let linksDone = false; // everything collected: the pass reads on for the scan alone

  const links: LinkFeatures[] = [];
  const bad: BadLink[] = [];
  const urls = new Set<string>();
  // Hrefs met already that normalised to a crawlable URL (against the current base): a repeat is that URL again,
  // already in `urls`, so it is not resolved a second time (menus and footers repeat their hrefs; past the cap every
  // link is resolved only to be counted).
  const hrefsSeen = new Set<string>();
  const selfUrl = normalizeUrl(pageUrl, undefined, normOpts);
  if (selfUrl.ok) urls.add(selfUrl.url);
  let baseUrl = pageUrl;
  let basePrefix = basePrefixOf(baseUrl); // `http://host:port` of the base: plain `/path` hrefs resolve without parsing
  let baseSeen = false;

  const textParts: string[] = [];
  let textLength = 0;
  let title = '';
  let titleDone = false;
  let rawTag = ''; // the raw-text element we are inside, '' when none
  let rawChars = ''; // its text (kept for <title> only)
  let word = '';
  // The last `ctxWords` words of the current block, a ring of `ringLength` words from `ringStart` (every word of a
  // page passes through it: a ring costs no shift per word).
  const ring: string[] = new Array<string>(Math.max(0, ctxWords));
  let ringStart = 0;
  let ringLength = 0;
  const ringWords = (): string[] => {
    const out = new Array<string>(ringLength);
    for (let i = 0; i < ringLength; i++) out[i] = ring[(ringStart + i) % ctxWords] as string;
    return out;
  };
  let open: OpenLink | null = null;
  const pending = new PendingContexts(ctxWords); // links waiting for their context words after them
  let lastWasBlock = true;
  // Open block elements (innermost last) and their class attributes, for `domPath`: `tag.class1.class2` is made only
  // for the innermost block of a collected link, not for every block element of the page.
  const blocks: string[] = [];
  const blockClasses: Array<string | undefined> = [];

  const emitWord = (w: string): void => {
    if (textLength < maxText) {
      const part = lastWasBlock ? w : ` ${w}`;
      textParts.push(part);
      textLength += part.length;
      lastWasBlock = false;
    }
    if (ringLength < ctxWords) ring[(ringStart + ringLength++) % ctxWords] = w;
    else if (ctxWords > 0) {
      ring[ringStart] = w;
      ringStart = (ringStart + 1) % ctxWords;
    }
    if (open !== null && open.anchorWords.length < MAX_ANCHOR_WORDS) open.anchorWords.push(w);
    pending.word(w);
  };
  const flushWord = (): void => {
    if (word !== '') {
      emitWord(word);
      word = '';
    }
  };
  const addText = (chars: string): void => {
    if (!hasSpace(chars)) {
      word += chars; // most character tokens: one piece of a word (parse5 emits whitespace as tokens of its own)
      return;
    }
    const parts = chars.split(/\s+/);
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) flushWord();
      word += parts[i];
    }
  };
  const blockBoundary = (): void => {
    flushWord();
    pending.finishAll();
    ringStart = 0;
    ringLength = 0;
    if (open !== null) open.before = [];
    if (!lastWasBlock && textLength < maxText) {
      textParts.push('\n');
      textLength += 1;
    }
    lastWasBlock = true;
  };
  const closeLink = (): void => {
    if (open === null) return;
    flushWord();
    const anchor = open.anchorWords.join(' ');
    open.features.anchor = anchor !== '' ? anchor : open.imgAlt;
    pending.add(open.features, open.before);
    open = null;
  };

  const setBase = (href: string): void => {
    const resolved = URL.parse(href.trim(), pageUrl);
    if (resolved !== null && (resolved.protocol === 'http:' || resolved.protocol === 'https:')) {
      baseUrl = resolved.href;
      basePrefix = basePrefixOf(baseUrl);
      hrefsSeen.clear(); // a relative href may now resolve elsewhere
    }
  };
  /**
   * Resolves and records one link; returns its features (and the tag's attributes) when it is a new link being
   * collected. Past the cap a new link is only counted: its attributes are not read.
   */
  const collect = (href: string, tag: LinkTag, token: Token.TagToken | null): { features: LinkFeatures; attrs: Record<string, string> } | null => {
    if (links.length >= maxLinks && beyond >= maxBeyond) return null;
    if (hrefsSeen.has(href)) return null;
    let url = basePrefix === null ? null : resolvePlainPath(href, basePrefix, normOpts);
    if (url === null) {
      const res = normalizeUrl(href, baseUrl, normOpts);
      if (!res.ok) {
        if (bad.length < maxLinks && links.length < maxLinks) bad.push({ href, page: pageUrl, reason: res.reason });
        return null;
      }
      url = res.url;
    }
    hrefsSeen.add(href);
    if (urls.has(url)) return null;
    urls.add(url);
    if (links.length >= maxLinks) {
      beyond += 1; // past the cap: counted, not kept
      return null;
    }
    const attrs = token === null ? {} : attrsOf(token);
    const features: LinkFeatures = {
      url,
      tag,
      anchor: '',
      title: collapse(attrs.title ?? ''),
      type: (attrs.type ?? '').trim(),
      rel: collapse(attrs.rel ?? ''),
      context: '',
      domPath: `${blocks.length === 0 ? '' : withClasses(blocks[blocks.length - 1] as string, blockClasses[blockClasses.length - 1])} ${withClasses(tag, attrs.class)}`.trim(),
    };
    links.push(features);
    return { features, attrs };
  };

  const handler: TokenHandler = {
    onStartTag(token) {
      const name = token.tagName;
      if (scan !== null) {
        const scanState = scan.startTag(token, tokenizer);
        if (linksDone) {
          if (scanState !== null) tokenizer.state = scanState as typeof tokenizer.state;
          return;
        }
        // The links' states differ from the scan's for a self-closing raw-text tag (`<script/>`) and <noframes>.
        if (scanState !== null && !(name === 'plaintext' || (RAW_TEXT[name] !== undefined && !token.selfClosing))) scan.abandon();
      }
      if (!INLINE.has(name)) flushWord();
      if (BLOCKS.has(name)) {
        blockBoundary();
        if (!token.selfClosing) {
          blocks.push(name);
          blockClasses.push(attrOf(token, 'class') ?? undefined);
        }
      }
      const mode = RAW_TEXT[name];
      if (mode !== undefined && !token.selfClosing) {
        tokenizer.state = mode as typeof tokenizer.state;
        rawTag = name;
        rawChars = '';
      } else if (name === 'plaintext') {
        tokenizer.state = TokenizerMode.PLAINTEXT as typeof tokenizer.state;
      }
      switch (name) {
        case 'base': {
          const href = attrOf(token, 'href');
          if (!baseSeen && href !== null) {
            baseSeen = true;
            setBase(href);
          }
          return;
        }
        case 'a': {
          closeLink();
          const href = attrOf(token, 'href') ?? attrOf(token, 'xlink:href');
          if (href === null) return;
          const kept = collect(href, 'a', token);
          if (kept === null) return;
          open = { features: kept.features, before: ringWords(), anchorWords: [], imgAlt: '' };
          if (token.selfClosing) closeLink();
          return;
        }
        case 'img':
          if (open !== null && open.imgAlt === '') open.imgAlt = collapse(attrOf(token, 'alt') ?? '');
          return;
        case 'link':
        case 'area':
        case 'frame':
        case 'iframe': {
          const href = attrOf(token, name === 'frame' || name === 'iframe' ? 'src' : 'href');
          if (href === null) return;
          const kept = collect(href, name, token);
          if (kept === null) return;
          if (name === 'area') kept.features.anchor = collapse(kept.attrs.alt ?? '');
          pending.add(kept.features, ringWords());
          return;
        }
      }
    },
    onEndTag(token) {
      const name = token.tagName;
      if (scan !== null) {
        scan.endTag(token);
        if (linksDone) return;
      }
      if (name === rawTag) {
        if (name === 'title' && !titleDone) {
          title = collapse(rawChars);
          titleDone = true;
        }
        rawTag = '';
        rawChars = '';
        return;
      }
      if (name === 'a') closeLink();
      else if (!INLINE.has(name)) flushWord();
      if (BLOCKS.has(name)) {
        blockBoundary();
        popBlock(blocks, blockClasses, name);
      }
      if (links.length >= maxLinks && open === null && pending.size === 0 && textLength >= maxText) {
        // Everything kept is complete. Left: the links past the cap to count, and the scan (which needs the tokenizer
        // to the end). Without a scan the rest is read by scanHrefs, ~5× cheaper than tokenising it (bench/micro.ts
        // links-beyond), or not at all once `maxBeyond` are counted.
        if (scan === null || scan.abandoned) {
          tokenizer.pause();
          if (beyond < maxBeyond) countFrom = tokenizer.preprocessor.offset;
        } else if (beyond >= maxBeyond) linksDone = true;
      }
    },
    onCharacter(token) {
      onChars(token);
    },
    onWhitespaceCharacter(token) {
      if (rawTag === '' && !linksDone) flushWord(); // what addText does with whitespace alone, without splitting it
      else onChars(token);
    },
    onNullCharacter(token) {
      if (scan?.inScript) scan.text(token.chars);
    },
    onComment() {},
    onDoctype() {},
    onEof() {
      scan?.eof();
      if (linksDone) return;
      closeLink();
      blockBoundary();
    },
  };
  const onChars = (token: Token.CharacterToken): void => {
    if (scan?.inScript) scan.text(token.chars);
    if (linksDone) return;
    if (rawTag !== '') {
      if (rawTag === 'title' && !titleDone && rawChars.length < 2000) rawChars += token.chars;
      return;
    }
    addText(token.chars);
  };

  let countFrom = -1; // where scanHrefs counts on from, once the tokenizer is paused with links left to count
  const tokenizer = new Tokenizer({ sourceCodeLocationInfo: false }, handler);
  tokenizer.write(html, true);
  if (countFrom >= 0) {
    scanHrefs(html, countFrom, (tag, href) => {
      if (tag === 'base') {
        if (!baseSeen) {
          baseSeen = true;
          setBase(href);
        }
      } else collect(href, tag as LinkTag, null);
      return beyond < maxBeyond;
    });
  }
  // Paused early (everything collected): close what is still open.
  if (open !== null || pending.size > 0) {
    closeLink();
    blockBoundary();
  }
  return { links, beyond, bad, baseUrl, text: textParts.join('').trimEnd(), title };
}
