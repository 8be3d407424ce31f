// **checkBeforeOpening**: what `rdfscout crawl` can refuse before it creates or opens anything in the --out folder.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveCrawlOptions, seedToUrl } from '../crawl/options.ts';
import { noUsableSeed, screenSeeds } from '../crawl/seed-list.ts';
import { ArgumentError } from '../errors.ts';
import type { CrawlArgs } from './crawl-args.ts';

/** Whether `dir` holds a crawl's store (a resume), without opening or creating anything. */
async function holdsCrawl(dir: string): Promise<boolean> {
  try {
    await access(join(dir, 'db'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses, before the --out folder is touched, what would make a crawl fail or do nothing: a bad seed, and for a
 * new crawl its options as a whole and seeds none of which may be fetched (localhost or private addresses without
 * --allow-private). A resume's options are checked against the stored ones when it opens (the folder exists then,
 * so nothing is created either); a worker of a shared crawl takes the options stored in Redis.
 */
export async function checkBeforeOpening(args: Pick<CrawlArgs, 'explicit' | 'redis' | 'seedsFile'>): Promise<{ resume: boolean }> {
  const { explicit, redis, seedsFile } = args;
  for (const seed of explicit.seeds ?? []) seedToUrl(seed);
  const resume = await holdsCrawl(explicit.out);
  // Refused by a worker's coordination too (distributed/redis-coordination.ts); here before Redis holds anything.
  if (redis !== undefined && explicit.retryFailed === true) throw new ArgumentError('--retry-failed needs a crawl run by one process: the URLs that failed are spread over the shards of a crawl shared through Redis.');
  if (resume || redis !== undefined) return { resume };
  const options = resolveCrawlOptions(explicit);
  if (options.seeds.length === 0) {
    if (seedsFile !== undefined && seedsFile.problems > 0) throw new ArgumentError(`No usable seed: no line of --seeds-file ${seedsFile.path} gave a seed (see above).`);
    throw new ArgumentError('No seeds: give seed URLs or PLDs as arguments or with --seeds-file FILE.');
  }
  const { accepted, refused } = screenSeeds(options.seeds, options.allowPrivate);
  if (accepted.length === 0) throw noUsableSeed(refused);
  return { resume };
}
