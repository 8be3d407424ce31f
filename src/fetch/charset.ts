// **charset** turns response bytes into text: BOM, HTTP header, in-document declaration, then UTF-8 with BeeBot's fallback.
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';

/** How many bytes of the document are sniffed for `<meta charset>` or an XML declaration (HTML's prescan limit). */
const SNIFF_BYTES = 1024;

/** UTF-8 output with more U+FFFD than this share of characters is taken as a wrong guess (BeeBot §2, page processing). */
const MAX_REPLACEMENT_SHARE = 0.01;

/** The charset a byte-order mark announces, or null. */
export function charsetFromBom(body: Uint8Array): string | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The `charset` parameter of a Content-Type header value (lower-cased, quotes removed), or null. */
export function charsetFromContentType(contentType: string | null): string | null {
  if (contentType === null) return null;
  const match = /;\s*charset\s*=\s*("?)([^";,\s]+)\1/i.exec(contentType);
  return match?.[2]?.toLowerCase() ?? null;
}

/**
 * The encoding declared inside the document, from its first 1024 bytes: `<meta charset>`,
 * `<meta http-equiv="Content-Type" content="…; charset=…">`, or an XML declaration's `encoding`.
 */
export function sniffDeclaredCharset(body: Uint8Array): string | null {
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.length, SNIFF_BYTES)).toString('latin1');
  const xml = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head);
  if (xml?.[1]) return xml[1].toLowerCase();
  const meta = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head);
  if (meta?.[1]) {
    const label = meta[1].toLowerCase();
    // HTML spec: a meta declaring UTF-16 in an ASCII-compatible prescan means UTF-8.
    return label.startsWith('utf-16') ? 'utf-8' : label;
  }
  return null;
}

/** A TextDecoder for a label, or null when the label is unknown (e.g. `charset=foo`). */
function decoderFor(label: string, fatal: boolean): TextDecoder | null {
  try {
    return new TextDecoder(label, { fatal });
  } catch {
    return null;
  }
}

function countReplacements(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) n++;
  return n;
}

/**
 * Decodes a document to text. Order: BOM, the HTTP header's charset, a declaration sniffed from the
 * first 1024 bytes, then UTF-8. Never throws: an unknown label is skipped, and when UTF-8 decoding
 * (declared or assumed) yields many U+FFFD the raw bytes are decoded as windows-1252 instead
 * (BeeBot §2: "if the encoding was guessed wrong, decode the raw bytes with the detected charset").
 * `charset` is the WHATWG name of the encoding actually used (e.g. `utf-8`, `windows-1252`, `shift_jis`).
 */
export function decodeText(body: Uint8Array, contentType: string | null): { text: string; charset: string } {
  const charset = chooseCharset(body, contentType);
  return { text: new TextDecoder(charset).decode(body), charset };
}

/**
 * The encoding {@link decodeText} decodes `body` with, found without building the text: valid UTF-8 is checked on
 * the bytes, and the share of U+FFFD in invalid UTF-8 is counted one slice at a time.
 */
export function chooseCharset(body: Uint8Array, contentType: string | null): string {
  const bom = charsetFromBom(body);
  if (bom !== null) return bom;
  const candidates = [charsetFromContentType(contentType), sniffDeclaredCharset(body)];
  for (const label of candidates) {
    if (label === null) continue;
    const decoder = decoderFor(label, false);
    if (decoder === null) continue; // unknown label: try the next source
    if (decoder.encoding !== 'utf-8') return decoder.encoding;
    break; // declared UTF-8: decode as UTF-8 below, with the fallback
  }
  if (isUtf8(body)) return 'utf-8';
  // Invalid UTF-8: see how much of it is broken.
  let bad = 0;
  let chars = 0;
  for (const text of decodeChunks(body, 'utf-8')) {
    bad += countReplacements(text);
    chars += text.length;
  }
  return bad <= chars * MAX_REPLACEMENT_SHARE ? 'utf-8' : 'windows-1252';
}

/** Bytes decoded at once by {@link decodeChunks}. */
const DECODE_SLICE_BYTES = 64 * 1024;

/**
 * The text of `body` in `charset`, one slice at a time (a streaming TextDecoder: a character cut between two slices
 * is decoded whole), so that a large document never exists as one string; a BOM is dropped as `decodeText` does.
 */
export function* decodeChunks(body: Uint8Array, charset: string): Generator<string> {
  const decoder = new TextDecoder(charset);
  for (let i = 0; i < body.length; i += DECODE_SLICE_BYTES) {
    const text = decoder.decode(body.subarray(i, i + DECODE_SLICE_BYTES), { stream: true });
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  if (rest !== '') yield rest;
}
