// **Replay source**: WARC items grouped into fetches, and each fetch's result rebuilt as the fetcher returned it.
import { Readable } from 'node:stream';
import { charsetFromBom, charsetFromContentType, readBody } from '../fetch/index.ts';
import { FETCHER_DEFAULTS } from '../fetch/options.ts';
import type { FetchResult, RedirectHop } from '../fetch/types.ts';
import type { FrontierEntry } from '../frontier/types.ts';
import type { ArchivedItem, ArchivedResponse } from '../warc/index.ts';
import { type ResolvedCrawlOptions, storableOptions } from './options.ts';

/** What `crawl --warc` says of one fetch in its metadata record. */
export interface FetchMeta {
  /**
   * `recorded`: committed as a record; `retry` / `aborted`: put back, no record (a re-parse skips it); `context`: a
   * JSON-LD remote context a document needed (no record, no entry: a re-parse keeps it for the documents after it).
   */
  outcome: 'recorded' | 'retry' | 'aborted' | 'context';
  /** A `context` fetch: the context URL it was for (itself, or the URL whose JSON-LD alternate it fetched). */
  context?: string;
  entry: FrontierEntry;
  /** The fetch's result without its body (the body is the last response's). */
  result: Omit<FetchResult, 'body'> & { body?: undefined };
  seq?: number;
  ms?: number;
  fetchedAt?: string;
  robotsSitemaps?: string[];
  /** Record IDs of the fetch's responses, hop by hop. */
  responses: string[];
}

/** One fetch to re-parse: with rdfscout's metadata, or (another tool's WARC) a response and the redirects before it. */
export type ArchivedFetch = { kind: 'ours'; meta: FetchMeta; responses: ArchivedResponse[] } | { kind: 'foreign'; responses: ArchivedResponse[] };

/** The warcinfo fields `crawl --warc` adds: the crawl's options and its seeds' PLDs, so `reparse` needs no flags. */
export function archiveInfo(options: ResolvedCrawlOptions, seedPlds: ReadonlySet<string>): Record<string, string> {
  return { 'rdfscout-options': JSON.stringify(storableOptions(options).json), 'rdfscout-seed-plds': JSON.stringify([...seedPlds]) };
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);

/**
 * Groups archived items into fetches, in archive order. rdfscout's files (a warcinfo with `rdfscout-options`): each
 * metadata record takes the responses it lists; robots.txt responses and those of a fetch cut by a crash belong to
 * none and are dropped. Other files: every response is a fetch, a redirect's target joining its redirect chain.
 * `onItem` sees warcinfo records and problems.
 */
export async function* groupFetches(items: AsyncIterable<ArchivedItem>, onItem: (item: ArchivedItem) => void): AsyncGenerator<ArchivedFetch> {
  let ours = false;
  let pending = new Map<string, ArchivedResponse>();
  /** Foreign files: redirect chains waiting for their target, by target URL. */
  const chains = new Map<string, ArchivedResponse[]>();
  for await (const item of items) {
    if (item.kind === 'info') {
      ours = item.fields['rdfscout-options'] !== undefined;
      onItem(item);
    } else if (item.kind === 'problem') onItem(item);
    else if (item.kind === 'fetch') {
      const meta = item.meta as FetchMeta;
      const responses = (meta.responses ?? []).flatMap((id) => pending.get(id) ?? []);
      pending = new Map();
      yield { kind: 'ours', meta, responses };
    } else if (ours) pending.set(item.id, item);
    else {
      const chain = [...(chains.get(item.url) ?? []), item];
      chains.delete(item.url);
      const location = item.headers.location;
      if (REDIRECT.has(item.status) && location !== undefined && chain.length <= FETCHER_DEFAULTS.maxRedirects) {
        const target = new URL(location, item.url);
        target.hash = '';
        chains.set(target.href, chain);
      } else yield { kind: 'foreign', responses: chain };
    }
  }
  for (const chain of chains.values()) yield { kind: 'foreign', responses: chain }; // redirects to nothing archived
}

/** The body of an archived response decoded as the fetcher decodes it (same Content-Encoding handling and limits). */
async function decodedBody(r: ArchivedResponse, maxBodyBytes: number): Promise<{ body: Buffer; charset: string | null }> {
  const body = await readBody(Readable.from([r.body]), {
    url: r.url,
    contentEncoding: r.headers['content-encoding'] ?? null,
    maxBodyBytes,
    maxDecompressedBytes: FETCHER_DEFAULTS.maxDecompressedBytes,
  });
  return { body, charset: charsetFromContentType(r.headers['content-type'] ?? null) ?? charsetFromBom(body) };
}

/** The result rdfscout's metadata describes, its body taken from the fetch's last response. Null if that is missing. */
export async function resultOfOurs(meta: FetchMeta, responses: readonly ArchivedResponse[], maxBodyBytes: number): Promise<FetchResult | null> {
  const result = { ...meta.result } as FetchResult;
  if (result.kind !== 'ok') return result;
  const last = responses.at(-1);
  if (last === undefined) return null;
  return { ...result, ...(await decodedBody(last, maxBodyBytes)) };
}

/**
 * The result another tool's response chain gives, decided as the crawl decides: 2xx read when `read` says so (else
 * `skipped`), other statuses `http-error`; a body the archive says is incomplete is a failure, as a fetch cut short.
 */
export async function resultOfForeign(
  responses: readonly ArchivedResponse[],
  read: (contentType: string | null, url: string) => boolean,
  maxBodyBytes: number,
): Promise<FetchResult> {
  const first = responses[0] as ArchivedResponse;
  const last = responses.at(-1) as ArchivedResponse;
  const redirects: RedirectHop[] = responses.slice(0, -1).map((r, i) => ({ from: r.url, to: (responses[i + 1] as ArchivedResponse).url, status: r.status as RedirectHop['status'] }));
  const common = { url: first.url, finalUrl: last.url, redirects, ms: 0 };
  const contentType = last.headers['content-type'] ?? null;
  const { status, headers } = last;
  if (status < 200 || status >= 300) {
    const error = status === 429 || status === 503 ? 'RDFSCOUT_RATE_LIMITED' : 'RDFSCOUT_HTTP_STATUS';
    return { ...common, kind: 'http-error', status, contentType, headers, error, retryAfterMs: null };
  }
  if (!read(contentType, last.url)) return { ...common, kind: 'skipped', status, contentType, headers };
  if (last.truncated !== null) {
    const error = last.truncated === 'length' ? 'RDFSCOUT_BODY_TOO_LARGE' : 'RDFSCOUT_CONNECTION_FAILED';
    return { ...common, kind: 'failed', status, error, message: `The archived body of ${last.url} is incomplete (WARC-Truncated: ${last.truncated})`, retryable: false };
  }
  return { ...common, kind: 'ok', status, contentType, headers, ...(await decodedBody(last, maxBodyBytes)) };
}
