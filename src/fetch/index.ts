// The public face of the fetching layer: Fetcher, Politeness, charset decoding, the SSRF guard.
export { readBody } from './body-reader.ts';
export { charsetFromBom, charsetFromContentType, chooseCharset, decodeChunks, decodeText } from './charset.ts';
export { Fetcher } from './fetcher.ts';
export { DEFAULT_ACCEPT } from './options.ts';
