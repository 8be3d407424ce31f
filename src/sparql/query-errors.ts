// **Query errors**: the errors a SPARQL query ends with, and their form on the way out of the query worker.
import { type ErrorCode, RdfscoutError } from '../errors.ts';

/** A query refused by policy, not by syntax: an update, or SERVICE when not allowed. Code RDFSCOUT_QUERY_FAILED. */
export class QueryRefusedError extends RdfscoutError {
  readonly reason: 'update' | 'service';
  constructor(reason: 'update' | 'service', message: string) {
    super('RDFSCOUT_QUERY_FAILED', message);
    this.name = 'QueryRefusedError';
    this.reason = reason;
  }
}

/** An error as it crosses from the worker to the main thread. */
export interface WireError {
  code: ErrorCode;
  message: string;
  refused?: 'update' | 'service';
}

/** Any failure as an RdfscoutError (RDFSCOUT_QUERY_FAILED unless it already has a code). */
function toQueryError(err: unknown): RdfscoutError {
  if (err instanceof RdfscoutError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new RdfscoutError('RDFSCOUT_QUERY_FAILED', `The query failed: ${message}`, { cause: err });
}

export function encodeError(err: unknown): WireError {
  const e = toQueryError(err);
  return e instanceof QueryRefusedError ? { code: e.code, message: e.message, refused: e.reason } : { code: e.code, message: e.message };
}

export function decodeError(wire: WireError): RdfscoutError {
  return wire.refused ? new QueryRefusedError(wire.refused, wire.message) : new RdfscoutError(wire.code, wire.message);
}
