// **queuedEntries** builds frontier entries as a crawl queues them (NewEntry with the link's features), from real links of rendered simulated-web pages.
import type { NewEntry } from '../../src/frontier/types.ts';
import { extractLinks } from '../../src/links/extract-links.ts';
import { toQueueAdd } from '../../src/distributed/shared-entry.ts';
import type { QueueAdd } from '../../src/distributed/redis/shared-queue.ts';
import { buildWeb, respond } from '../../src/simweb/index.ts';

/**
 * `n` distinct URLs to queue, each as the crawl's `processDocument` would enqueue it (parent, depth, priority,
 * label, rules, link features: anchor, title, type, rel, ±20 words of context, DOM path) and as RedisFrontier sends
 * it to Redis (`toQueueAdd`: `{ url, pld, priority, json }`, the JSON without the URL). Pages of the `mixed` web, 80 copies (2 000 PLDs), are rendered and
 * their links extracted until `n` distinct URLs are found.
 */
export function queuedEntries(n: number): QueueAdd[] {
  const web = buildWeb({ profiles: 'mixed', seed: 7, scale: 0.05, copies: 80 });
  const out: QueueAdd[] = [];
  const seen = new Set<string>();
  for (const site of web.sites) {
    for (const doc of site.docs) {
      if (doc.kind !== 'html' || doc.status !== 200) continue;
      const pageUrl = `http://${site.host}${doc.path}`;
      const body = respond(web, pageUrl, 'text/html').body.toString('utf8');
      for (const link of extractLinks(body, pageUrl).links) {
        if (seen.has(link.url)) continue;
        seen.add(link.url);
        const e: NewEntry = { url: link.url, parent: pageUrl, depth: doc.depth + 1, priority: 2, label: 'H', rules: ['r1'], link, offsiteHops: 0 };
        out.push(toQueueAdd(e));
        if (out.length >= n) return out;
      }
    }
  }
  throw new Error(`queuedEntries: the web has only ${out.length} distinct links; ask for fewer`);
}
