// **Progress reporting**: a one-line bar on a terminal, structured JSON lines otherwise; during an outage pause, for how long.
import type { CrawlProgress } from '../crawl/crawler.ts';
import type { OutageEvent } from '../fetch/outage.ts';

export interface ProgressReporter {
  update(p: CrawlProgress): void;
  /** The crawl paused because the network is down, or resumed: the line says "paused: network" and for how long until then. */
  outage(e: OutageEvent): void;
  done(): void;
}

/** An outage pause as the progress line shows it: since when the crawl is offline, and when it probes next (epoch ms). */
export interface NetworkPause {
  since: number;
  until: number;
}

/** The figures a progress line shows (a crawl's progress, or zeros before its first record). */
type Figures = Pick<CrawlProgress['tally'], 'fetched' | 'rdfDocuments' | 'triples' | 'errors'> & { queued: number; lastUrl: string | null };

/** The terminal line (pure): bar, figures, and "paused: network for N s" during an outage pause. */
export function progressLine(f: Figures, budget: number, secs: number, pause: NetworkPause | null, now: number): string {
  const width = 24;
  const frac = Number.isFinite(budget) ? Math.min(1, f.fetched / budget) : 0;
  const bar = Number.isFinite(budget) ? `[${'#'.repeat(Math.round(frac * width)).padEnd(width, '.')}] ` : '';
  const rate = secs > 0 ? f.fetched / secs : 0;
  const paused = pause === null ? '' : `paused: network for ${Math.round((now - pause.since) / 1000)} s (next probe in ${Math.max(0, Math.round((pause.until - now) / 1000))} s) · `;
  return `${bar}${paused}${f.fetched}${Number.isFinite(budget) ? `/${budget}` : ''} fetched · ${f.rdfDocuments} RDF · ${f.triples} triples · ${f.errors} errors · ${rate.toFixed(1)}/s · ${f.queued} queued`;
}

/** The structured line (pure): the same figures as JSON; during an outage pause `paused: 'network'` and for how long. */
export function progressJson(f: Figures, secs: number, pause: NetworkPause | null, now: number): string {
  const rate = secs > 0 ? f.fetched / secs : 0;
  const network = pause === null ? {} : { paused: 'network', offlineSeconds: Math.round((now - pause.since) / 1000), nextProbeInSeconds: Math.max(0, Math.round((pause.until - now) / 1000)) };
  const { fetched, rdfDocuments, triples, errors, queued, lastUrl } = f;
  return JSON.stringify({ event: 'progress', fetched, rdfDocuments, triples, errors, queued, perSecond: Number(rate.toFixed(2)), lastUrl, ...network });
}

/** A reporter for `stream`; `budget` is the fetch budget (Infinity when none). Lines at most every `intervalMs`, and that often during an outage pause. */
export function createProgress(stream: NodeJS.WriteStream, budget: number, intervalMs = stream.isTTY ? 100 : 2000, now: () => number = Date.now): ProgressReporter {
  const started = now();
  let last = 0;
  let latest: CrawlProgress | null = null;
  let pause: NetworkPause | null = null;
  let ticker: NodeJS.Timeout | null = null;
  const render = (final: boolean) => {
    const t = latest?.tally;
    const f: Figures = { fetched: t?.fetched ?? 0, rdfDocuments: t?.rdfDocuments ?? 0, triples: t?.triples ?? 0, errors: t?.errors ?? 0, queued: latest?.queued ?? 0, lastUrl: latest?.record.url ?? null };
    const at = now();
    const secs = (at - started) / 1000;
    if (stream.isTTY) {
      const cols = (stream.columns ?? 100) - 1;
      stream.write(`\r${progressLine(f, budget, secs, pause, at).padEnd(cols).slice(0, cols)}${final ? '\n' : ''}`);
    } else stream.write(`${progressJson(f, secs, pause, at)}\n`);
  };
  const stopTicker = () => {
    if (ticker !== null) clearInterval(ticker);
    ticker = null;
  };
  return {
    update(p) {
      latest = p;
      const at = now();
      if (at - last >= intervalMs) {
        last = at;
        render(false);
      }
    },
    outage(e) {
      if (e.kind === 'resumed') {
        pause = null;
        stopTicker();
      } else {
        pause = { since: e.since, until: e.until };
        // No record arrives during a pause: the line is redrawn on a timer, so that it says for how long.
        ticker ??= setInterval(() => render(false), Math.max(intervalMs, 1000)).unref();
      }
      render(false);
    },
    done() {
      stopTicker();
      if (latest) render(true);
    },
  };
}
