// **generateCase**: crawl settings from a seed (pure), for differential runs across modes.
import { Prng } from '../../../src/random/prng.ts';
import { MAX_TINY_PLDS, type WebSpec } from './case-web.ts';
import type { CaseOptions } from './crawl-modes.ts';

/** One generated case: a web, crawl options, how many Redis workers, and what goes wrong on the way. */
export interface DiffCase {
  seed: number;
  web: WebSpec;
  options: CaseOptions;
  /** Redis workers (1–3). */
  workers: number;
  /** SIGKILL of the one process (then a resume) or of one Redis worker (then a restart on its shard), after `killAfterMs`. */
  kill: 'none' | 'single' | 'worker';
  killAfterMs: number;
  /**
   * When the kill lands: after some requests (`requests`: `resumeAfter` of them for one process, `killAfterMs` for a
   * worker), or `live-exhausted`: at the first request to the dead host once every live URL one process fetched was
   * requested (plus `killAfterMs % 40` ms) — resumed or restarted with only the dead host's URLs left.
   */
  killAt: 'requests' | 'live-exhausted';
  /** Stopped (signal) after this many records and resumed, in the "interrupted" mode when nothing is killed. */
  resumeAfter: number;
  /** The redis-server is killed and restarted during the workers' run. */
  redisRestart: boolean;
}

/** Options for generating: whether kills and Redis restarts may be drawn (they need child processes). */
export interface GenerateOptions {
  kills?: boolean;
  redisRestarts?: boolean;
  deadHosts?: boolean;
  /** Kills may land once the live sites are exhausted (`killAt`), where a dead host is drawn. */
  liveExhaustedKills?: boolean;
  /** A fraction of the webs is served over https. */
  https?: boolean;
  /**
   * What else a user meets: a robots.txt that answers 500 or never answers, redirects that loop or lead to the dead
   * host, a host that never answers (past a short --headers-timeout-ms), many PLDs of one document each.
   */
  hostKinds?: boolean;
}

/** A case from `seed`: budgets below and above the web's size, depth, scope, calendar, dead host, 1–3 workers. */
export function generateCase(seed: number, g: GenerateOptions = {}): DiffCase {
  const rng = Prng.of('differential', seed);
  const sites = Array.from({ length: rng.int(1, 3) }, () => rng.int(3, 12));
  const size = sites.reduce((a, b) => a + b, 0);
  const scopeKind = rng.pick(['seeds', 'seeds', 'hops', 'open'] as const);
  const offsite = scopeKind !== 'seeds';
  const calendar = offsite && rng.chance(0.4);
  const deadHost = offsite && g.deadHosts === true && rng.chance(0.3);
  const options: CaseOptions = { strategy: rng.chance(0.8) ? 'bfs' : 'fc-r+hr', concurrency: rng.chance(0.5) ? 1 : rng.int(2, 4) };
  if (scopeKind === 'open') options.scope = 'open';
  if (scopeKind === 'hops') options.offsiteHops = 1;
  const budget = (n: number) => rng.pick(['none', 'below', 'above'] as const) === 'none' ? undefined : rng.chance(0.5) ? rng.int(1, Math.max(1, n - 1)) : rng.int(n, n + 5);
  const maxDocs = budget(size);
  const maxDocsPerPld = budget(Math.max(...sites));
  if (maxDocs !== undefined) options.maxDocs = maxDocs;
  if (maxDocsPerPld !== undefined) options.maxDocsPerPld = maxDocsPerPld;
  if (rng.chance(0.3)) options.maxDepth = rng.int(1, 4);
  // An endless calendar ends only by a budget or a depth: give one when none was drawn.
  if (calendar && maxDocs === undefined && maxDocsPerPld === undefined && options.maxDepth === undefined) options.maxDocsPerPld = rng.int(size, size + 10);
  const kill = g.kills === true ? rng.pick(['none', 'none', 'single', 'worker'] as const) : 'none';
  const killAfterMs = rng.int(50, 900);
  const resumeAfter = rng.int(1, Math.max(1, size - 1));
  const redisRestart = g.redisRestarts === true && kill !== 'worker' && rng.chance(0.1);
  // Drawn last, so that the draws above (and the cases of earlier seeds) stay as they were: every mode parses every
  // document in a worker thread.
  if (rng.chance(0.5)) Object.assign(options, { threads: 1, threadMinKb: 0 });
  // Drawn after that, only when asked for: the cases found before these kinds existed stay as they were found.
  const killAt = g.liveExhaustedKills === true && deadHost && kill !== 'none' && rng.chance(0.8) ? 'live-exhausted' : 'requests';
  const https = g.https === true && rng.chance(0.25);
  // Drawn after those, only when asked for (hostKinds), for the same reason.
  const web: WebSpec = { seed, sites, calendar, deadHost, ...(https ? { https } : {}) };
  if (g.hostKinds === true) {
    if (rng.chance(0.15)) web.robots = rng.chance(0.5) ? 'error' : 'timeout';
    if (rng.chance(0.2)) web.redirects = true;
    if (offsite && rng.chance(0.2)) web.slowHost = true;
    if (rng.chance(0.15)) web.tinyPlds = rng.int(5, MAX_TINY_PLDS);
    // A request that never answers ends at the headers timeout: short, so that the case ends within its deadline.
    if (web.robots === 'timeout' || web.slowHost === true) options.headersTimeoutMs = 1500;
    // A robots.txt unavailable is asked again after 30 s (RFC 9309 §2.3.1.4; --max-retries 2 waits a minute a URL):
    // no retries, so that the case ends within its deadline.
    if (web.robots !== undefined) options.maxRetries = 0;
  }
  return {
    seed,
    web,
    options,
    workers: rng.int(1, 3),
    kill,
    killAfterMs,
    killAt,
    resumeAfter,
    // Not while a killed worker restarts: a worker that starts while Redis is down refuses to start (by design).
    redisRestart,
  };
}

/** One line describing a case (printed with every failure, with its seed). */
export function describeCase(c: DiffCase): string {
  const o = Object.entries(c.options).map(([k, v]) => `${k}=${v}`).join(' ');
  const w = c.web;
  const more = `${w.robots === undefined ? '' : ` +robots-${w.robots}`}${w.redirects === true ? ' +redirects' : ''}${w.slowHost === true ? ' +slow-host' : ''}${w.tinyPlds === undefined ? '' : ` +${w.tinyPlds}-tiny-plds`}`;
  return `seed ${c.seed}: sites [${c.web.sites}]${c.web.calendar ? ' +calendar' : ''}${c.web.deadHost ? ' +dead-host' : ''}${more}${c.web.https === true ? ' https' : ''} ${o} workers=${c.workers} kill=${c.kill}${c.kill === 'none' ? '' : c.killAt === 'live-exhausted' ? '@live-exhausted' : `@${c.killAfterMs}ms`}${c.redisRestart ? ' redis-restart' : ''}`;
}
