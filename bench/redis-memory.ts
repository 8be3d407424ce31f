// **redis-memory** measures the bytes Redis spends per seen URL (64-bit fingerprints in bucketed hashes) and per queued
// URL (the shared frontier's entries, built from real links of the simulated web), and projects them to 100 M URLs.
// Run: node_modules/.bin/node bench/redis-memory.ts [--urls 1000000] [--digests 200000] [--queued 200000] [--json out.json]
import { hash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Redis } from 'ioredis';
import { Prng } from '../src/random/prng.ts';
import { connectRedis } from '../src/distributed/redis/connect.ts';
import { bucketBitsFor } from '../src/distributed/redis/fingerprint.ts';
import { SeenSet } from '../src/distributed/redis/seen-set.ts';
import { queuedEntries } from './lib/queued-entries.ts';
import { SharedQueue } from '../src/distributed/redis/shared-queue.ts';
import { DEFAULT_QUEUE_CAP } from '../src/distributed/shared-crawl.ts';
import { startRedisServer } from '../test/helpers/redis-server.ts';

const { values } = parseArgs({
  options: {
    urls: { type: 'string', default: '1000000' },
    digests: { type: 'string', default: '200000' },
    queued: { type: 'string', default: '200000' },
    batch: { type: 'string', default: '10000' },
    json: { type: 'string' },
  },
});
const URLS = Number(values.urls);
const DIGESTS = Number(values.digests);
const QUEUED = Number(values.queued);
const BATCH = Number(values.batch);
const PROJECTED = 100_000_000;

/** A URL of a plausible crawl: 2 000 hosts, paths of a few segments, some query strings. */
function urlOf(i: number): string {
  const host = `www.site${i % 2000}.example`;
  const q = i % 7 === 0 ? `?page=${i % 97}&lang=en` : '';
  return `http://${host}/data/${(i * 2654435761) % 100000}/item-${i}${q}`;
}

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)?.[1]);
}

/** Sum of MEMORY USAGE (SAMPLES 0: every entry) over the keys matching a pattern, and their encodings. */
async function keyBytes(redis: Redis, pattern: string): Promise<{ bytes: number; keys: number; encodings: Record<string, number> }> {
  let cursor = '0';
  let bytes = 0;
  let keys = 0;
  const encodings: Record<string, number> = {};
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 5000);
    cursor = next;
    const pipe = redis.pipeline();
    for (const k of batch) pipe.memory('USAGE', k, 'SAMPLES', 0).object('ENCODING', k);
    const res = (await pipe.exec()) ?? [];
    for (let i = 0; i < res.length; i += 2) {
      bytes += Number(res[i]![1]);
      const enc = String(res[i + 1]![1]);
      encodings[enc] = (encodings[enc] ?? 0) + 1;
    }
    keys += batch.length;
  } while (cursor !== '0');
  return { bytes, keys, encodings };
}

const server = await startRedisServer({ appendOnly: false });
const redis = await connectRedis(server.url);
const rows: Array<Record<string, unknown>> = [];
try {
  const intsetMax = (await redis.config('GET', 'set-max-intset-entries')) as string[];
  console.log(`redis-server ${(await redis.info('server')).match(/redis_version:(\S+)/)?.[1]}, set-max-intset-entries ${intsetMax[1]}`);

  // 1. Real URLs through SeenSet.add (SHA-256 → 64 bits), buckets sized for this many URLs.
  {
    const bits = bucketBitsFor(URLS);
    const seen = new SeenSet(redis, { crawl: 'urls', bucketBits: bits });
    const before = await usedMemory(redis);
    const t0 = performance.now();
    let added = 0;
    for (let i = 0; i < URLS; i += BATCH) {
      const urls = Array.from({ length: Math.min(BATCH, URLS - i) }, (_, k) => urlOf(i + k));
      added += (await seen.add(urls)).filter(Boolean).length;
    }
    const secs = (performance.now() - t0) / 1000;
    const used = (await usedMemory(redis)) - before;
    const k = await keyBytes(redis, seen.keys.seenBucket('*'));
    rows.push({ what: `seen set, ${URLS} real URLs, ${bits} bucket bits`, urls: added, perUrlInfo: used / added, perUrlMemoryUsage: k.bytes / added, keys: k.keys, encodings: k.encodings, addsPerSec: Math.round(added / secs) });
    await redis.flushall();
  }

  // 2. One 1/128 slice of a 100 M-URL crawl: bucketBitsFor(100 M) bucket bits, the buckets whose top 7 bits are 0.
  //    Buckets are independent, so bytes per URL in the slice are those of the whole 100 M-URL set.
  {
    const bits = bucketBitsFor(PROJECTED);
    const sliceBits = 7;
    const n = Math.round(PROJECTED / 2 ** sliceBits);
    const seen = new SeenSet(redis, { crawl: 'slice', bucketBits: bits });
    const prng = new Prng(42);
    const before = await usedMemory(redis);
    let added = 0;
    for (let i = 0; i < n; i += BATCH) {
      const fps = Array.from({ length: Math.min(BATCH, n - i) }, () => {
        const hi = BigInt(prng.nextInt(2 ** (32 - sliceBits)));
        const lo = BigInt(prng.nextInt(2 ** 32));
        return (hi << 32n) | lo; // the top 7 bits are 0: this slice's buckets
      });
      added += (await seen.addFingerprints(fps)).filter(Boolean).length;
    }
    const used = (await usedMemory(redis)) - before;
    const k = await keyBytes(redis, seen.keys.seenBucket('*'));
    rows.push({ what: `seen set, 1/128 slice of ${PROJECTED} URLs, ${bits} bucket bits`, urls: added, perUrlInfo: used / added, perUrlMemoryUsage: k.bytes / added, keys: k.keys, encodings: k.encodings });
    await redis.flushall();
  }

  // 3. For comparison: one Redis set of hex SHA-1 digests (scrapy-redis's dupefilter).
  {
    const before = await usedMemory(redis);
    for (let i = 0; i < DIGESTS; i += BATCH) {
      const digests = Array.from({ length: Math.min(BATCH, DIGESTS - i) }, (_, k) => hash('sha1', urlOf(i + k)));
      await redis.sadd('digests', ...digests);
    }
    const used = (await usedMemory(redis)) - before;
    const k = await keyBytes(redis, 'digests');
    rows.push({ what: `set of hex SHA-1 digests, ${DIGESTS} URLs`, urls: DIGESTS, perUrlInfo: used / DIGESTS, perUrlMemoryUsage: k.bytes / DIGESTS, keys: 1, encodings: k.encodings });
    await redis.flushall();
  }

  // 4. Queued URLs: the shared frontier's entries (SharedQueue.add), as the crawl queues them: real links of the
  //    simulated web with their features (anchor, context, …), over 2 000 PLDs. Per queued URL: its entry header and
  //    JSON (HASH `e`), its member in its PLD's queue (ZSET `q:PLD`) and the per-PLD counters; the seen set apart.
  {
    const entries = queuedEntries(QUEUED);
    const queue = new SharedQueue(redis, { crawl: 'queued', worker: 'bench', hostConcurrency: 1, delayMs: 0, leaseMs: 30_000, bucketBits: bucketBitsFor(QUEUED) });
    const before = await usedMemory(redis);
    for (let i = 0; i < entries.length; i += 1000) await queue.add(entries.slice(i, i + 1000), Date.now());
    const used = (await usedMemory(redis)) - before;
    const all = await keyBytes(redis, queue.keys.pattern);
    const seen = await keyBytes(redis, queue.keys.seenBucket('*'));
    const json = entries.reduce((n, e) => n + Buffer.byteLength(e.json), 0) / entries.length;
    const url = entries.reduce((n, e) => n + Buffer.byteLength(e.url), 0) / entries.length;
    rows.push({
      what: `queued URLs (entry + PLD queue + seen set), ${entries.length} URLs, mean URL ${url.toFixed(0)} B, mean entry JSON ${json.toFixed(0)} B`,
      urls: entries.length, perUrlInfo: used / entries.length, perUrlMemoryUsage: all.bytes / entries.length, keys: all.keys, encodings: all.encodings,
      queuedOnlyPerUrl: (all.bytes - seen.bytes) / entries.length,
    });
    await redis.flushall();
  }

  // 5. The overflow (queue-overflow.ts): the same entries queued on 40 PLDs (5 000 each) with the default cap of
  //    1 000 per PLD, so most wait in runs (LISTs) — without and with Redis's list compression (list-compress-depth
  //    1: LZF on every packed node but the ends). Per spilled entry: MEMORY USAGE of the runs / entries in them.
  for (const depth of [0, 1]) {
    await redis.config('SET', 'list-compress-depth', String(depth));
    const entries = queuedEntries(QUEUED).map((e, i) => ({ ...e, pld: `p${i % 40}.example` }));
    const queue = new SharedQueue(redis, { crawl: 'spilled', worker: 'bench', hostConcurrency: 1, delayMs: 0, leaseMs: 30_000, bucketBits: bucketBitsFor(QUEUED) });
    await queue.setQueueCap(DEFAULT_QUEUE_CAP);
    const before = await usedMemory(redis);
    for (let i = 0; i < entries.length; i += 1000) await queue.add(entries.slice(i, i + 1000), Date.now());
    const used = (await usedMemory(redis)) - before;
    const all = await keyBytes(redis, queue.keys.pattern);
    const seen = await keyBytes(redis, queue.keys.seenBucket('*'));
    const runs = await keyBytes(redis, `${queue.keys.prefix}r:*`);
    let spilled = 0;
    for (let cursor = '0'; ; ) {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${queue.keys.prefix}r:*`, 'COUNT', 5000);
      for (const k of keys) spilled += await redis.llen(k);
      cursor = next;
      if (cursor === '0') break;
    }
    rows.push({
      what: `queued URLs on 40 PLDs, cap ${DEFAULT_QUEUE_CAP} per PLD, list-compress-depth ${depth}: ${spilled} of ${entries.length} in the overflow`,
      urls: entries.length, perUrlInfo: used / entries.length, perUrlMemoryUsage: all.bytes / entries.length, keys: all.keys, encodings: all.encodings,
      queuedOnlyPerUrl: (all.bytes - seen.bytes) / entries.length, perSpilled: runs.bytes / spilled, spilled,
    });
    await redis.flushall();
  }
} finally {
  redis.disconnect();
  await server.stop();
}

console.log('what | URLs | B/URL (INFO used_memory) | B/URL (MEMORY USAGE) | projected to 100 M (INFO)');
for (const r of rows) {
  const info = r.perUrlInfo as number;
  console.log(`${r.what} | ${r.urls} | ${info.toFixed(1)} | ${(r.perUrlMemoryUsage as number).toFixed(1)} | ${((info * PROJECTED) / 1e9).toFixed(2)} GB  ${JSON.stringify(r.encodings)}${r.addsPerSec ? `, ${r.addsPerSec} adds/s` : ''}`);
}
const ratio = (rows[2]!.perUrlInfo as number) / (rows[1]!.perUrlInfo as number);
console.log(`hex-digest set / bucketed fingerprints at 100 M: ${ratio.toFixed(1)}×`);
const q = rows[3]!;
const seenAt100M = rows[1]!.perUrlInfo as number;
const queuedOnly = q.queuedOnlyPerUrl as number;
console.log(`per queued URL without its seen-set entry (MEMORY USAGE): ${queuedOnly.toFixed(0)} B`);
console.log(
  `100 M URLs seen, of which 10 M queued: ${((seenAt100M * PROJECTED + queuedOnly * 1e7) / 1e9).toFixed(1)} GB; ` +
    `100 M seen and 100 M queued: ${((seenAt100M + queuedOnly) * PROJECTED / 1e9).toFixed(1)} GB`,
);
for (const r of rows.slice(4)) {
  console.log(`${r.what}: ${(r.perSpilled as number).toFixed(0)} B per entry in the overflow, ${(r.queuedOnlyPerUrl as number).toFixed(0)} B per queued URL in all`);
}
const spilledAt100M = Math.min(...rows.slice(4).map((r) => r.perSpilled as number));
const held = DEFAULT_QUEUE_CAP * 10_000; // the queues' heads held in Redis at most, for 10 000 PLDs with work
console.log(
  `100 M seen and 100 M queued over 10 000 PLDs, capped at ${DEFAULT_QUEUE_CAP}: ${(((seenAt100M * PROJECTED) + queuedOnly * held + spilledAt100M * (PROJECTED - held)) / 1e9).toFixed(1)} GB ` +
    `(${held / 1e6} M entries held at ${queuedOnly.toFixed(0)} B, the rest in compressed runs at ${spilledAt100M.toFixed(0)} B)`,
);
if (values.json) await writeFile(values.json, `${JSON.stringify(rows, null, 2)}\n`);
