// **rdfscout status --redis URL**: the shared progress of a distributed crawl, per worker and in total.
import { ArgumentError, RdfscoutError } from '../errors.ts';
import { connectRedis } from '../distributed/redis/connect.ts';
import { CrawlRegistry, type SharedStatus } from '../distributed/redis/crawl-registry.ts';
import { parseRedisUrl } from '../distributed/redis/url.ts';
import { type FlagSpec, parseFlags, strFlag } from './args.ts';

export const STATUS_USAGE = `Usage: rdfscout status --redis URL [--json]

Prints the shared progress of the crawl in Redis (rdfscout crawl --redis URL): URLs queued, in flight, fetched
and refetched (fetched again after a worker lost its lease), and per worker: alive (heartbeat within 3 leases),
fetched, RDF documents, refetched.

  --redis URL   redis://[:password@]HOST:PORT[/DB] (required)
  --json        one JSON object`;

export const STATUS_FLAGS: FlagSpec = { redis: { type: 'string' }, json: { type: 'boolean' } };

export async function runStatusCommand(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, STATUS_FLAGS, STATUS_USAGE);
  const url = strFlag(values, 'redis');
  if (url === undefined) throw new ArgumentError('--redis URL is required');
  const client = await connectRedis(url);
  try {
    const registry = new CrawlRegistry(client);
    const settings = await registry.settings();
    const status = settings === undefined ? undefined : await registry.status(3 * settings.leaseMs);
    if (status === undefined) throw new RdfscoutError('RDFSCOUT_NO_CRAWL', `There is no crawl in Redis at ${parseRedisUrl(url).display}.`);
    process.stdout.write(values.json === true ? `${JSON.stringify(status)}\n` : formatStatus(status));
    return 0;
  } finally {
    await client.quit();
  }
}

/** The text form: totals, then one line per worker. */
export function formatStatus(s: SharedStatus): string {
  const lines = [
    `crawl created ${s.created}`,
    `queued ${s.queued}  in flight ${s.inFlight}  fetched ${s.fetched}  done ${s.done}  refetched ${s.refetched}  learned ${s.learned}`,
    s.over === null ? 'crawl running' : `crawl over: ${s.over} (a worker that joins ends at once; a larger budget continues it)`,
    `workers ${s.workers.length} (${s.workers.filter((w) => w.alive).length} alive)`,
  ];
  for (const w of s.workers) {
    lines.push(`  ${w.worker}  ${w.alive ? 'alive' : 'gone '}  fetched ${w.fetched}  rdf ${w.rdfDocuments}  refetched ${w.refetched}`);
  }
  return `${lines.join('\n')}\n`;
}
