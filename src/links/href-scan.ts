// **scanHrefs** finds the link targets in the rest of an HTML page without tokenising it: what extractLinks counts
// past its cap once it needs nothing else of the page.
import { RAW_TEXT } from './html-tokens.ts';

/** The attribute that holds a link target, per element extractLinks reads (`a` also takes `xlink:href`). */
const TARGET_ATTR: Record<string, string> = { a: 'href', link: 'href', area: 'href', frame: 'src', iframe: 'src', base: 'href' };

/** Where the raw text of each element extractLinks skips ends: its end tag (HTML §13.2.5.3, "appropriate end tag"). */
const RAW_END: Record<string, RegExp> = Object.fromEntries(Object.keys(RAW_TEXT).map((name) => [name, new RegExp(`</${name}[\\t\\n\\f\\r />]`, 'gi')]));

/** Named character references decoded in a target (the others are left as written). */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
// A named one without its `;` is decoded only when no `=` or alphanumeric follows (HTML §13.2.5.73, in an attribute).
const CHAR_REF = /&(?:#[xX]([0-9a-fA-F]{1,6});?|#([0-9]{1,7});?|(amp|lt|gt|quot|apos|nbsp)(?:;|(?![=a-zA-Z0-9])))/g;

/** `value` with its numeric and common named character references decoded (HTML §13.5). */
function decodeRefs(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(CHAR_REF, (_ref: string, hex?: string, dec?: string, name?: string) => {
    if (name !== undefined) return NAMED[name] as string;
    const cp = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    return cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? '\ufffd' : String.fromCodePoint(cp);
  });
}

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;
const isAsciiLetter = (c: number): boolean => (c | 32) >= 97 && (c | 32) <= 122;

/**
 * Calls `onTarget(tag, value)` for the link target of each `a`, `link`, `area`, `frame`, `iframe` and `base` start tag
 * in `html` from `from` on, in order, until it returns false or the page ends. A lighter reading than the tokenizer's
 * for what only counts links: tag names and attribute names are ASCII case-insensitive, values quoted or not, the
 * first of repeated attributes wins, comments and the raw text of script, style, textarea, title, xmp, iframe and
 * noembed are skipped (as extractLinks skips them), and numeric and the common named character references (`&amp;`,
 * `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;`) are decoded; `<!…>` and `<?…>` end at the next `>`, as the
 * tokenizer's bogus comments and doctypes do. It does not follow the tokenizer into its rarer states: a `<` inside
 * another tag's quoted attribute value may open a tag here, script data's escaped states are not told apart, a doctype
 * with a quoted `>` ends early, numeric references to C1 controls are not remapped (windows-1252), and other named
 * references stay as written.
 */
export function scanHrefs(html: string, from: number, onTarget: (tag: string, value: string) => boolean): void {
  const n = html.length;
  let at = from;
  while (at < n) {
    const lt = html.indexOf('<', at);
    if (lt < 0 || lt + 1 >= n) return;
    if (html.startsWith('!--', lt + 1)) {
      const end = html.indexOf('-->', lt + 4);
      if (end < 0) return;
      at = end + 3;
      continue;
    }
    let i = lt + 1;
    const first = html.charCodeAt(i);
    if (first === 33 /* ! */ || first === 63 /* ? */) {
      // A doctype, CDATA outside foreign content or another bogus comment: to the next `>`.
      const end = html.indexOf('>', i);
      if (end < 0) return;
      at = end + 1;
      continue;
    }
    if (!isAsciiLetter(first)) {
      at = i;
      continue;
    }
    while (i < n) {
      const c = html.charCodeAt(i);
      if (isSpace(c) || c === 47 /* / */ || c === 62 /* > */) break;
      i++;
    }
    const name = html.slice(lt + 1, i).toLowerCase();
    if (name === 'plaintext') return; // the rest of the page is text
    const want = TARGET_ATTR[name];
    const rawEnd = RAW_END[name];
    if (want === undefined && rawEnd === undefined) {
      at = i;
      continue;
    }
    // The attributes, to the tag's `>` (quotes respected).
    let target: string | null = null;
    let xlink: string | null = null;
    let selfClosing = false;
    for (;;) {
      while (i < n && (isSpace(html.charCodeAt(i)) || html.charCodeAt(i) === 47)) {
        selfClosing = html.charCodeAt(i) === 47;
        i++;
      }
      if (i >= n) return;
      if (html.charCodeAt(i) === 62) {
        i++;
        break;
      }
      selfClosing = false;
      const nameStart = i;
      i++; // an attribute name's first character may be `=`
      while (i < n) {
        const c = html.charCodeAt(i);
        if (isSpace(c) || c === 47 || c === 62 || c === 61 /* = */) break;
        i++;
      }
      const attr = html.slice(nameStart, i).toLowerCase();
      let j = i;
      while (j < n && isSpace(html.charCodeAt(j))) j++;
      let value = '';
      if (html.charCodeAt(j) === 61) {
        j++;
        while (j < n && isSpace(html.charCodeAt(j))) j++;
        const q = html.charCodeAt(j);
        if (q === 34 || q === 39) {
          const close = html.indexOf(q === 34 ? '"' : "'", j + 1);
          if (close < 0) return;
          value = html.slice(j + 1, close);
          i = close + 1;
        } else {
          let k = j;
          while (k < n && !isSpace(html.charCodeAt(k)) && html.charCodeAt(k) !== 62) k++;
          value = html.slice(j, k);
          i = k;
        }
      }
      if (want !== undefined) {
        if (attr === want) target ??= value;
        else if (name === 'a' && attr === 'xlink:href') xlink ??= value;
      }
    }
    at = i;
    const found = target ?? xlink;
    if (found !== null && !onTarget(name, decodeRefs(found))) return;
    if (rawEnd !== undefined && !selfClosing) {
      rawEnd.lastIndex = at;
      if (rawEnd.exec(html) === null) return;
      at = rawEnd.lastIndex;
    }
  }
}
