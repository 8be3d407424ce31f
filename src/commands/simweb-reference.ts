// **simwebReference**: when a crawl goes through a simulated web on this machine, its reference curves for the dashboard.
import { request } from 'undici';
import type { CrawlOptions } from '../crawl/options.ts';
import { type NamedCurve, referenceCurves, SIMWEB_DESCRIPTION_PATH } from '../simweb/index.ts';
import type { WebOptions } from '../simweb/index.ts';

/**
 * Asks the crawl's proxy whether it is a simulated web (`rdfscout simweb serve`, the demo, the tests): only a proxy on
 * a loopback address is asked, once, with a short timeout. Returns the web's options, or null for any other proxy.
 */
export async function describeSimweb(proxy: string | null, timeoutMs = 2000): Promise<WebOptions | null> {
  if (proxy === null) return null;
  let base: URL;
  try {
    base = new URL(proxy);
  } catch {
    return null;
  }
  const host = base.hostname.replace(/^\[|\]$/g, '');
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') return null;
  try {
    const res = await request(new URL(SIMWEB_DESCRIPTION_PATH, base), { signal: AbortSignal.timeout(timeoutMs) });
    if (res.statusCode !== 200) {
      await res.body.dump();
      return null;
    }
    const body = (await res.body.json()) as Partial<WebOptions>;
    if (body.profiles === undefined || typeof body.seed !== 'number') return null;
    return { profiles: body.profiles, seed: body.seed, scale: typeof body.scale === 'number' ? body.scale : 1, copies: typeof body.copies === 'number' ? body.copies : 1 };
  } catch {
    return null;
  }
}

/** The oracle and breadth-first curves of a crawl of the simulated web `web`, within the crawl's seeds, scope and budget. */
export function crawlReferenceCurves(web: WebOptions, options: Pick<CrawlOptions, 'seeds' | 'scope' | 'offsiteHops' | 'maxDocs'>): NamedCurve[] {
  return referenceCurves(web, {
    seeds: options.seeds,
    seedPldsOnly: options.scope === 'seeds' && options.offsiteHops === 0,
    maxFetches: options.maxDocs,
  });
}
