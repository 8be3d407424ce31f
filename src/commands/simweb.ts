// **rdfscout simweb serve | truth**: the bundled simulated Linked-Data web, for any crawler to be pointed at.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { ArgumentError } from '../errors.ts';
import { META_PROFILES, PROFILES, buildWeb, startSimweb, truthLines } from '../simweb/index.ts';
import { type FlagSpec, intFlag, parseFlags, strFlag } from './args.ts';

const PROFILE_NAMES = () => [...Object.keys(META_PROFILES), ...PROFILES.keys()].join(', ');

export const SIMWEB_USAGE = `Usage: rdfscout simweb serve [--profile P] [--seed S] [--scale X] [--copies N] [--port N] [--latency-ms N]
       rdfscout simweb truth [--profile P] [--seed S] [--scale X] [--copies N] [--out FILE]

serve: one HTTP server on 127.0.0.1 that is a forward proxy for every simulated host (and answers plain requests
       by Host header). Point any crawler at it: rdfscout crawl URL… --proxy http://127.0.0.1:PORT
truth: the ground truth as JSON lines (url, label R/HR/H/N, depth, status, triples, …) — for rdfscout metrics --truth.

  --profile P          profile or comma-separated profiles (default thesis)
  --seed S             generator seed: the same seed gives a byte-identical web (default 1)
  --scale X            size factor (default 1: sizes of the thesis's and BeeBot's tables)
  --copies N           serve every site N times, each copy on its own PLD (default 1; e.g. 130 copies of
                       thesis = 520 PLDs, for distributed crawls)
  --port N             port of serve (default 8080; 0 = any)
  --latency-ms N       delay of every response (default 0)`;

export const SIMWEB_FLAGS: FlagSpec = {
  profile: { type: 'string' },
  seed: { type: 'string' },
  scale: { type: 'string' },
  copies: { type: 'string' },
  port: { type: 'string' },
  'latency-ms': { type: 'string' },
  out: { type: 'string' },
};

function webOptions(values: Record<string, unknown>): { profiles: string; seed: number; scale: number; copies: number } {
  const scaleRaw = strFlag(values, 'scale');
  const scale = scaleRaw === undefined ? 1 : Number(scaleRaw);
  if (!(scale > 0)) throw new ArgumentError(`--scale must be a positive number (got ${scaleRaw}).`);
  const profiles = strFlag(values, 'profile') ?? 'thesis';
  for (const p of profiles.split(',')) {
    if (!PROFILES.has(p) && !(p in META_PROFILES)) throw new ArgumentError(`Unknown profile "${p}". Known: ${PROFILE_NAMES()}.`);
  }
  const copies = intFlag(values, 'copies', 1) ?? 1;
  return { profiles, seed: intFlag(values, 'seed', 0) ?? 1, scale, copies };
}

/** The subcommands of `rdfscout simweb`. */
export const SIMWEB_SUBCOMMANDS = ['serve', 'truth'] as const;
type SimwebSubcommand = (typeof SIMWEB_SUBCOMMANDS)[number];

export async function runSimwebCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!SIMWEB_SUBCOMMANDS.includes(sub as SimwebSubcommand)) throw new ArgumentError(`simweb needs a subcommand: serve or truth`);
  const { values } = parseFlags(rest, SIMWEB_FLAGS, SIMWEB_USAGE);
  const opts = webOptions(values);
  if (sub === 'truth') {
    const path = strFlag(values, 'out');
    const out = path ? createWriteStream(path) : process.stdout;
    let n = 0;
    for (const line of truthLines(buildWeb(opts))) {
      n += 1;
      if (!out.write(`${line}\n`)) await once(out, 'drain');
    }
    if (path) {
      out.end();
      await once(out, 'finish');
      process.stderr.write(`${n} truth records written to ${path}\n`);
    }
    return 0;
  }
  const web = await startSimweb({ ...opts, port: intFlag(values, 'port', 0) ?? 8080, latencyMs: intFlag(values, 'latency-ms', 0) ?? 0 });
  process.stdout.write(
    `${JSON.stringify({ proxyUrl: web.proxyUrl, sites: web.sites }, null, 2)}\n\n` +
      `Simulated web "${opts.profiles}" (seed ${opts.seed}) on ${web.proxyUrl}. Crawl it with:\n` +
      `  rdfscout crawl ${web.sites.map((s) => s.startUrl).join(' ')} --proxy ${web.proxyUrl} --delay-ms 0 --out crawl-out\n` +
      'Ctrl-C to stop.\n',
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await web.close();
  return 0;
}
