// The public face of the fetching layer: Fetcher, Politeness, charset decoding, the SSRF guard.
export { checkIpLiteral, createGuardedLookup, isPrivateAddress, type LookupFunction, type ResolveAll } from './address-guard.ts';
export { readBody } from './body-reader.ts';
export { charsetFromBom, charsetFromContentType, chooseCharset, decodeChunks, decodeText, sniffDeclaredCharset } from './charset.ts';
export { type FetchOptions, Fetcher } from './fetcher.ts';
export { parseRetryAfter } from './network-errors.ts';
export { DEFAULT_ACCEPT, DEFAULT_USER_AGENT, type FetcherConfig, type FetcherOptions, productToken, resolveFetcherOptions } from './options.ts';
export { Politeness, type PolitenessOptions } from './politeness.ts';
export type { FetchResult, HttpExchange, ReadDecision, RedirectHop } from './types.ts';
