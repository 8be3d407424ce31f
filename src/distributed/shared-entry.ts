// **Shared entries**: how a frontier entry is written to the shared queue in Redis and read back — its URL stored once.
import { hostOf, pldOf } from '../links/normalize-url.ts';
import type { QueueAdd, QueueEntry } from './redis/shared-queue.ts';
import type { LinkFeatures } from '../links/types.ts';
import type { FrontierEntry, NewEntry } from '../frontier/types.ts';

/** An entry as its JSON holds it: no URL, and the link's own only when it differs. */
type StoredEntry = Omit<NewEntry, 'url' | 'link'> & { link: (Omit<LinkFeatures, 'url'> & { url?: string }) | null };

/**
 * The queue's form of a new entry. The queue keeps the URL once, beside the entry (`QueueEntry.url`), so the JSON
 * leaves it out, and leaves out the link's own `url` when it is the same (bench:redis-memory: bytes per queued URL).
 */
export function toQueueAdd(e: NewEntry): QueueAdd {
  const { url, ...rest } = e;
  let json: string;
  if (rest.link !== null && rest.link.url === url) {
    const { url: _same, ...link } = rest.link;
    json = JSON.stringify({ ...rest, link });
  } else {
    json = JSON.stringify(rest);
  }
  return { url, pld: pldOf(url), priority: e.priority, json };
}

/** The frontier entry of a queued one (the inverse of `toQueueAdd`, with the queue's header fields). */
export function toFrontierEntry(q: QueueEntry): FrontierEntry {
  const { url } = q;
  const e = JSON.parse(q.json) as StoredEntry;
  const link = e.link === null ? null : { ...e.link, url: e.link.url ?? url };
  return { ...e, link, url, priority: q.priority, pld: pldOf(url), host: hostOf(url), seq: q.seq, attempts: q.attempts, notBefore: q.notBefore };
}
