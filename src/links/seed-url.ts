// **seedToUrl** turns what a user gives as a seed (a URL, or a bare PLD or host) into an absolute http(s) URL.
import { ArgumentError } from '../errors.ts';

/**
 * A bare PLD or host (`example.org`) becomes `http://example.org/`; anything else must be an http(s) URL. The
 * fragment is dropped: it names a part of a document, and the document's URL is its graph name.
 */
export function seedToUrl(seed: string): string {
  const s = seed.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `http://${s}/`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ArgumentError(`Seed "${seed}" is not a URL or a domain name.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ArgumentError(`Seed "${seed}" is not http(s).`);
  if (url.hostname === '') throw new ArgumentError(`Seed "${seed}" has no host name.`);
  url.hash = '';
  return url.href;
}
