// **mayControl** decides whether a request may steer the crawl: only on a loopback bind (from a loopback peer), or
// with the dashboard's token; always as JSON from the page's own origin, so another site's page cannot forge it.
import type { IncomingMessage } from 'node:http';
import { timingSafeEqual } from 'node:crypto';

/** Why a control request is refused (HTTP status and message), or null when it may go through. */
export interface Refusal {
  status: number;
  message: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);

/** Whether an address (bind host or peer) is a loopback one. */
function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return LOOPBACK_HOSTS.has(address) || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks a control request. With a token: `Authorization: Bearer TOKEN` (or `X-Rdfscout-Token`) is required,
 * whatever the bind. Without: the server must be bound to loopback and the peer be loopback. In both cases the body
 * must be `application/json` (a cross-site form cannot send it without a CORS preflight, which is not answered)
 * and an `Origin` header, when sent, must be this server's.
 */
export function checkControlAccess(req: IncomingMessage, bindHost: string, token: string | null): Refusal | null {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return { status: 415, message: 'Send controls as application/json.' };
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let host = '';
    try {
      host = new URL(origin).host;
    } catch {
      // an unparsable origin is refused below
    }
    if (host !== req.headers.host) return { status: 403, message: `Controls are refused from another origin (${origin}).` };
  }
  if (token !== null) {
    const auth = req.headers.authorization;
    const given = auth?.startsWith('Bearer ') ? auth.slice(7) : (req.headers['x-rdfscout-token'] as string | undefined);
    if (given === undefined || !sameToken(given, token)) return { status: 401, message: 'A valid token is required (Authorization: Bearer TOKEN, see --serve-token).' };
    return null;
  }
  if (!isLoopback(bindHost) || !isLoopback(req.socket.remoteAddress)) {
    return { status: 403, message: 'Controls answer only on a loopback bind, or with a token (--serve-token).' };
  }
  return null;
}
