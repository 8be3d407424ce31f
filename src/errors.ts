// **RdfscoutError** is the base of every error the crawler raises or records, with a stable code.

/** Stable error codes, recorded on documents (`rdfscout docs` → `error`) and shown to users. */
export type ErrorCode =
  | 'RDFSCOUT_INVALID_ARGUMENT'
  | 'RDFSCOUT_INVALID_URL'
  | 'RDFSCOUT_URL_TOO_LONG'
  | 'RDFSCOUT_PRIVATE_ADDRESS'
  | 'RDFSCOUT_ROBOTS_DENIED'
  | 'RDFSCOUT_ROBOTS_UNAVAILABLE'
  | 'RDFSCOUT_REDIRECT_LIMIT'
  | 'RDFSCOUT_REDIRECT_LOOP'
  | 'RDFSCOUT_CONNECT_TIMEOUT'
  | 'RDFSCOUT_HEADERS_TIMEOUT'
  | 'RDFSCOUT_BODY_TIMEOUT'
  | 'RDFSCOUT_BODY_TOO_LARGE'
  | 'RDFSCOUT_DECOMPRESSED_TOO_LARGE'
  | 'RDFSCOUT_DECODE_FAILED'
  | 'RDFSCOUT_CONNECTION_FAILED'
  | 'RDFSCOUT_HTTP_STATUS'
  | 'RDFSCOUT_RATE_LIMITED'
  | 'RDFSCOUT_PARSE_FAILED'
  | 'RDFSCOUT_REMOTE_CONTEXT'
  | 'RDFSCOUT_STORE_FAILED'
  | 'RDFSCOUT_STORE_LOCKED'
  /** A read command was pointed at a folder that holds no crawl. */
  | 'RDFSCOUT_NO_CRAWL'
  | 'RDFSCOUT_RESUME_CONFLICT'
  | 'RDFSCOUT_QUERY_FAILED'
  | 'RDFSCOUT_QUERY_TIMEOUT'
  /** A query needed more memory than its cap (`--max-query-memory`) and was stopped. */
  | 'RDFSCOUT_QUERY_MEMORY'
  /** Redis could not be reached, or refused our credentials (the message names the URL, password hidden). */
  | 'RDFSCOUT_REDIS_UNREACHABLE'
  /** A Redis script or command failed on a reachable server (a bug or a server misconfiguration). */
  | 'RDFSCOUT_REDIS_FAILED'
  /** The `--sink` triple store did not take a document (after retries); the document is kept and sent again on resume. */
  | 'RDFSCOUT_SINK_REFUSED'
  /** A WARC file could not be written (`--warc`: the crawl stops) or read (`reparse`). */
  | 'RDFSCOUT_WARC_FAILED'
  /** A bug: an exception nobody expected. The crawl stops (its state stays consistent: nothing half-written). */
  | 'RDFSCOUT_INTERNAL';

export interface RdfscoutErrorOptions {
  cause?: unknown;
  /** The document or link the error concerns. */
  url?: string;
  /** For parse errors: the line in the document. */
  line?: number;
  /** Whether retrying the same request later may succeed (network hiccups, 5xx, 429). */
  retryable?: boolean;
}

export class RdfscoutError extends Error {
  readonly code: ErrorCode;
  readonly url: string | undefined;
  readonly line: number | undefined;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: RdfscoutErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RdfscoutError';
    this.code = code;
    this.url = options.url;
    this.line = options.line;
    this.retryable = options.retryable ?? false;
  }
}

/** A bad command-line argument or option: the CLI prints the message and exits with code 2. */
export class ArgumentError extends RdfscoutError {
  constructor(message: string) {
    super('RDFSCOUT_INVALID_ARGUMENT', message);
    this.name = 'ArgumentError';
  }
}

/** A URL for messages and logs: its password, if any, replaced by `***`. */
export function redactUrl(url: URL): string {
  if (url.password === '') return url.href;
  const copy = new URL(url.href);
  copy.password = '***';
  return copy.href;
}
