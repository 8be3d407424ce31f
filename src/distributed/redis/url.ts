// **Redis URL**: parses `redis://[[user]:password@]host[:port][/db]` into connection settings, with errors that name the URL.
import { RdfscoutError, redactUrl } from '../../errors.ts';

/** Where and how to connect, from a `redis://` URL. */
export interface RedisTarget {
  host: string;
  /** Default: 6379. */
  port: number;
  /** Logical database (`/DB`). Default: 0. */
  db: number;
  /** ACL user name (`redis://user:password@…`); undefined for the default user. */
  username: string | undefined;
  password: string | undefined;
  /** The URL with its password replaced by `***`: the only form that goes into messages and logs. */
  display: string;
}

/**
 * Parses a Redis URL. Only `redis://` is accepted (no TLS in Debian's server setup); a path must be a database
 * number; query strings are refused rather than ignored.
 * @throws RdfscoutError `RDFSCOUT_INVALID_URL`, naming the URL (password hidden) and what is wrong with it.
 */
export function parseRedisUrl(url: string): RedisTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid(url.replace(/\/\/([^@/]*):[^@/]*@/, '//$1:***@'), 'not a URL; expected redis://[:password@]host:port[/db]');
  }
  const display = redactUrl(u);
  if (u.protocol !== 'redis:') throw invalid(display, `the scheme must be redis:, not ${u.protocol}`);
  if (u.hostname === '') throw invalid(display, 'no host');
  if (u.search !== '' || u.hash !== '') throw invalid(display, 'query strings and fragments are not supported');
  const port = u.port === '' ? 6379 : Number(u.port);
  const path = u.pathname.replace(/^\//, '');
  if (path !== '' && !/^(0|[1-9][0-9]{0,4})$/.test(path)) {
    throw invalid(display, `the path must be a database number (e.g. /0), not /${path}`);
  }
  return {
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    db: path === '' ? 0 : Number(path),
    username: u.username === '' ? undefined : decodeURIComponent(u.username),
    password: u.password === '' ? undefined : decodeURIComponent(u.password),
    display,
  };
}

function invalid(display: string, why: string): RdfscoutError {
  return new RdfscoutError('RDFSCOUT_INVALID_URL', `Invalid Redis URL ${display}: ${why}.`, { url: display });
}
