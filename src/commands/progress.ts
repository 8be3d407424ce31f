// **Progress reporting**: a one-line bar on a terminal, structured JSON lines otherwise.
import type { CrawlProgress } from '../crawl/crawler.ts';

export interface ProgressReporter {
  update(p: CrawlProgress): void;
  done(): void;
}

/** A reporter for `stream`; `budget` is the fetch budget (Infinity when none). Lines at most every `intervalMs`. */
export function createProgress(stream: NodeJS.WriteStream, budget: number, intervalMs = stream.isTTY ? 100 : 2000): ProgressReporter {
  const started = Date.now();
  let last = 0;
  let latest: CrawlProgress | null = null;
  const render = (p: CrawlProgress, final: boolean) => {
    const t = p.tally;
    const secs = (Date.now() - started) / 1000;
    const rate = secs > 0 ? t.fetched / secs : 0;
    if (stream.isTTY) {
      const width = 24;
      const frac = Number.isFinite(budget) ? Math.min(1, t.fetched / budget) : 0;
      const bar = Number.isFinite(budget) ? `[${'#'.repeat(Math.round(frac * width)).padEnd(width, '.')}] ` : '';
      const line = `${bar}${t.fetched}${Number.isFinite(budget) ? `/${budget}` : ''} fetched · ${t.rdfDocuments} RDF · ${t.triples} triples · ${t.errors} errors · ${rate.toFixed(1)}/s · ${p.queued} queued`;
      stream.write(`\r${line.padEnd((stream.columns ?? 100) - 1).slice(0, (stream.columns ?? 100) - 1)}${final ? '\n' : ''}`);
    } else {
      stream.write(
        `${JSON.stringify({ event: 'progress', fetched: t.fetched, rdfDocuments: t.rdfDocuments, triples: t.triples, errors: t.errors, queued: p.queued, perSecond: Number(rate.toFixed(2)), lastUrl: p.record.url })}\n`,
      );
    }
  };
  return {
    update(p) {
      latest = p;
      const now = Date.now();
      if (now - last >= intervalMs) {
        last = now;
        render(p, false);
      }
    },
    done() {
      if (latest) render(latest, true);
    },
  };
}
