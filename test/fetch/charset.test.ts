import { describe, expect, it } from 'vitest';
import { charsetFromContentType, decodeText, sniffDeclaredCharset } from '../../src/fetch/charset.ts';

const latin1 = (s: string) => Buffer.from(s, 'latin1');
const utf8 = (s: string) => Buffer.from(s, 'utf8');

describe('charsetFromContentType', () => {
  it('reads the charset parameter, quoted or not, any case', () => {
    expect(charsetFromContentType('text/html; charset=ISO-8859-1')).toBe('iso-8859-1');
    expect(charsetFromContentType('text/html;charset="utf-8"')).toBe('utf-8');
    expect(charsetFromContentType('text/turtle')).toBeNull();
    expect(charsetFromContentType(null)).toBeNull();
  });
});

describe('sniffDeclaredCharset', () => {
  it('finds <meta charset>, http-equiv and the XML declaration in the first 1024 bytes', () => {
    expect(sniffDeclaredCharset(latin1('<html><head><meta charset="windows-1251">'))).toBe('windows-1251');
    expect(sniffDeclaredCharset(latin1('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'))).toBe('shift_jis');
    expect(sniffDeclaredCharset(latin1('<?xml version="1.0" encoding="ISO-8859-15"?><rdf:RDF/>'))).toBe('iso-8859-15');
    expect(sniffDeclaredCharset(latin1(`${' '.repeat(1100)}<meta charset="koi8-r">`))).toBeNull();
  });
});

describe('decodeText', () => {
  it('uses the HTTP header charset', () => {
    const out = decodeText(latin1('caf\xe9'), 'text/html; charset=iso-8859-1');
    expect(out).toEqual({ text: 'café', charset: 'windows-1252' }); // WHATWG maps latin1 labels to windows-1252
  });

  it('lets a BOM win over the header', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('naïve')]);
    expect(decodeText(body, 'text/plain; charset=iso-8859-1')).toEqual({ text: 'naïve', charset: 'utf-8' });
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé', 'utf16le')]);
    expect(decodeText(le, null)).toEqual({ text: 'hé', charset: 'utf-16le' });
  });

  it('uses <meta charset> when the header has none', () => {
    const html = Buffer.concat([latin1('<meta charset="windows-1251"><p>'), Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2])]);
    const out = decodeText(html, 'text/html');
    expect(out.charset).toBe('windows-1251');
    expect(out.text).toContain('Привет');
  });

  it('uses the XML declaration', () => {
    const xml = latin1('<?xml version="1.0" encoding="ISO-8859-1"?><a>\xe9t\xe9</a>');
    expect(decodeText(xml, 'application/rdf+xml').text).toBe('<?xml version="1.0" encoding="ISO-8859-1"?><a>été</a>');
  });

  it('skips an unknown label and still yields text', () => {
    expect(decodeText(utf8('grüß'), 'text/html; charset=no-such-charset')).toEqual({ text: 'grüß', charset: 'utf-8' });
    expect(decodeText(latin1('gr\xfc\xdf'), 'text/html; charset=bogus').text).toBe('grüß');
  });

  it('defaults to UTF-8', () => {
    expect(decodeText(utf8('日本語'), null)).toEqual({ text: '日本語', charset: 'utf-8' });
  });

  it('falls back to windows-1252 when "UTF-8" bytes are mostly invalid (BeeBot fallback)', () => {
    const out = decodeText(latin1('Fran\xe7ais, na\xefve, \x93quoted\x94'), 'text/html; charset=utf-8');
    expect(out).toEqual({ text: 'Français, naïve, “quoted”', charset: 'windows-1252' });
  });

  it('keeps UTF-8 with U+FFFD when only a stray byte is invalid', () => {
    const body = Buffer.concat([utf8('é'.repeat(200)), Buffer.from([0xff]), utf8('ok')]);
    const out = decodeText(body, null);
    expect(out.charset).toBe('utf-8');
    expect(out.text).toBe(`${'é'.repeat(200)}\ufffdok`);
  });
});
