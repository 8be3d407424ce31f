// **queued value**: a queued entry as the value of its `frontier` sublevel key, without what the key and the URL already say.
import { hostOf } from '../links/normalize-url.ts';
import type { LinkFeatures, LinkTag } from '../links/types.ts';
import type { Label } from '../relevance/types.ts';
import type { FrontierEntry } from './types.ts';

/**
 * The stored form (JSON): `[url, parent, depth, priority, label, rules, link, offsiteHops, seq, attempts, notBefore]`,
 * the last two left out when both are 0 (an entry never retried). `pld` is the key's (`q!<pld>!…`), `host` the URL's;
 * `link` is `[tag, anchor, title, type, rel, context, domPath?]` when its URL is the entry's, `offsiteHops` null when
 * absent. A bfs crawl's entries were 502 bytes as objects with every key and both URLs twice. An entry or link with
 * fields this form does not know is stored as it is (the object), and so are the values of stores written before it:
 * `decodeQueued` reads both.
 */
type StoredLink = [LinkTag, string, string, string, string, string, string?];
type StoredEntry = [string, string | null, number, number, Label | null, string[], StoredLink | LinkFeatures | null, number | null, number, number?, number?];

/** How many own enumerable keys `o` has, when every one of them is in `known`; -1 when one is not. */
function knownKeyCount(o: object, known: ReadonlySet<string>): number {
  let n = 0;
  for (const k in o) {
    if (!known.has(k)) return -1;
    n++;
  }
  return n;
}

const ENTRY_KEYS: ReadonlySet<string> = new Set(['url', 'parent', 'depth', 'priority', 'label', 'rules', 'link', 'offsiteHops', 'pld', 'host', 'seq', 'attempts', 'notBefore']);
const LINK_KEYS: ReadonlySet<string> = new Set(['url', 'tag', 'anchor', 'title', 'type', 'rel', 'context', 'domPath']);

function encodeLink(link: LinkFeatures | null, url: string): StoredLink | LinkFeatures | null {
  if (link === null || link.url !== url) return link;
  const n = knownKeyCount(link, LINK_KEYS);
  if (n === 7 && link.domPath === undefined) return [link.tag, link.anchor, link.title, link.type, link.rel, link.context];
  if (n === 8 && typeof link.domPath === 'string') return [link.tag, link.anchor, link.title, link.type, link.rel, link.context, link.domPath];
  return link;
}

/** The value stored under `entry`'s queue key (see `decodeQueued`). */
export function encodeQueued(entry: FrontierEntry): StoredEntry | FrontierEntry {
  const n = knownKeyCount(entry, ENTRY_KEYS);
  // Every known key (offsiteHops optional), else the object as it is. `pld` and `host` are the URL's (`LevelFrontier`
  // makes every entry so, and its queue key names the same PLD).
  if (n === 13 ? typeof entry.offsiteHops !== 'number' : n !== 12 || entry.offsiteHops !== undefined) return entry;
  const v: StoredEntry = [entry.url, entry.parent, entry.depth, entry.priority, entry.label, entry.rules, encodeLink(entry.link, entry.url), entry.offsiteHops ?? null, entry.seq];
  if (entry.attempts !== 0 || entry.notBefore !== 0) v.push(entry.attempts, entry.notBefore);
  return v;
}

/** The entry stored under `key` (`q!<pld>!<sort key>`, as the queue sublevel gives it) with `value`, in either form. */
export function decodeQueued(key: string, value: unknown): FrontierEntry {
  if (!Array.isArray(value)) return value as FrontierEntry;
  const v = value as StoredEntry;
  const url = v[0];
  const l = v[6];
  const link: LinkFeatures | null = Array.isArray(l)
    ? l.length > 6
      ? { url, tag: l[0], anchor: l[1], title: l[2], type: l[3], rel: l[4], context: l[5], domPath: l[6] as string }
      : { url, tag: l[0], anchor: l[1], title: l[2], type: l[3], rel: l[4], context: l[5] }
    : l;
  // The key is `q!` + pld + `!` + 33 characters of sort key; fields in the order `LevelFrontier` builds them in.
  const pld = key.slice(2, key.length - 34);
  const host = hostOf(url);
  const attempts = v[9] ?? 0;
  const notBefore = v[10] ?? 0;
  return v[7] === null
    ? { url, parent: v[1], depth: v[2], priority: v[3], label: v[4], rules: v[5], link, pld, host, seq: v[8], attempts, notBefore }
    : { url, parent: v[1], depth: v[2], priority: v[3], label: v[4], rules: v[5], link, offsiteHops: v[7], pld, host, seq: v[8], attempts, notBefore };
}
