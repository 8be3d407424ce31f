// **Dashboard** serves the live crawl pages and their JSON API beside the SPARQL endpoint (mounted through the
// endpoint's `mount` hook): `/` the dashboard, `/query.html` the YASGUI page, `/api/…` the data and the controls.
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CrawlControl } from '../crawl/control.ts';
import type { CrawlRecord } from '../crawl-log/record.ts';
import { RdfscoutError } from '../errors.ts';
import type { CrawlState } from '../state/open-state.ts';
import { checkControlAccess } from './access.ts';
import { EventStream } from './event-stream.ts';
import { readLinkTable } from './link-table-api.ts';
import { LiveState } from './live-state.ts';
import { StaticAssets } from './static-assets.ts';
import { type ClusterSource, ClusterView } from './cluster-view.ts';
import { curvePoints, type ReferenceCurve } from '../report/report-data.ts';

/** Options of {@link createDashboard}. */
export interface DashboardOptions {
  state: CrawlState;
  control: CrawlControl;
  /** The interface the server is bound to (controls need loopback or a token). Default: '127.0.0.1'. */
  host?: string;
  /** A token that controls must carry (`--serve-token`). Default: none (loopback only). */
  token?: string | null;
  /** Push interval of the event stream in ms. Default: 1000. */
  tickMs?: number;
  /**
   * Curves drawn beside the live harvest curve, e.g. the oracle's or a breadth-first crawl's on the simulated web
   * (`curve[k − 1]` = RDF documents after k fetches). Default: none.
   */
  references?: readonly ReferenceCurve[];
  /**
   * In a distributed crawl (`crawl --redis … --serve`), the whole crawl's progress per worker and in total, read
   * once a tick (`/api/cluster`, and the page's cluster panel). Default: none (one process).
   */
  cluster?: ClusterSource;
}

/** A running dashboard: give `handle` to the endpoint's `mount` hook; `close` ends its streams and timer. */
export interface Dashboard {
  readonly live: LiveState;
  /** Serves the request if it is the dashboard's; false to let the endpoint answer it. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Marks the crawl finished (sent to the pages at the next tick). */
  finish(): void;
  close(): void;
}

const RECORD_CHANNEL = 'rdfscout:crawl:record';
const LEARNED_EVERY = 5; // ticks between two copies of the learned patterns (a snapshot is O(parents))

/** Creates the dashboard of one crawl run; it listens to the crawl's record channel until closed. */
export function createDashboard(opts: DashboardOptions): Dashboard {
  const { control, state } = opts;
  const host = opts.host ?? '127.0.0.1';
  const token = opts.token ?? null;
  const live = new LiveState(control);
  const references = (opts.references ?? []).map((r) => ({ name: r.name, points: curvePoints(r.curve) }));
  const cluster = opts.cluster === undefined ? null : new ClusterView(opts.cluster);
  void cluster?.refresh();
  const assets = new StaticAssets();
  const stream = new EventStream();
  const onRecord = (message: unknown) => live.addRecord(message as CrawlRecord);
  diagnostics.subscribe(RECORD_CHANNEL, onRecord);
  const offControl = control.onChange(() => stream.broadcast('delta', { status: live.status() }));

  let tick = 0;
  let sentSeq = 0;
  let sentFetched = 0;
  const timer = setInterval(() => {
    void cluster?.refresh();
    live.sample();
    tick += 1;
    if (stream.size === 0) return;
    stream.broadcast('delta', delta(tick % LEARNED_EVERY === 0));
  }, opts.tickMs ?? 1000);
  timer.unref();

  /** What changed since the previous delta (log lines and curve points are sent once). */
  function delta(withLearned: boolean): unknown {
    const log = live.log.filter((l) => l.seq > sentSeq);
    const harvest = live.harvest.filter(([f]) => f >= sentFetched && f > 0); // >=: the last point sent may have been updated
    sentSeq = live.log.at(-1)?.seq ?? sentSeq;
    sentFetched = live.harvest.at(-1)?.[0] ?? sentFetched;
    const t = live.series.at(-1)?.t;
    return {
      status: live.status(),
      plds: live.plds(),
      log,
      harvest,
      series: live.series.slice(-1),
      arms: t === undefined ? [] : live.arms.filter((a) => a.t === t),
      errorKinds: Object.fromEntries(live.errorKinds),
      cluster: cluster?.snapshot ?? null,
      ...(withLearned ? { learned: live.learned() } : {}),
    };
  }

  function snapshot(): unknown {
    return {
      status: live.status(),
      plds: live.plds(),
      log: live.log,
      errors: live.errors,
      errorKinds: Object.fromEntries(live.errorKinds),
      harvest: live.harvest,
      series: live.series,
      arms: live.arms,
      learned: live.learned(),
      references,
      cluster: cluster?.snapshot ?? null,
    };
  }

  const getRoutes: Record<string, () => unknown> = {
    'api/status': () => live.status(),
    'api/plds': () => live.plds(),
    'api/log': () => live.log,
    'api/errors': () => ({ recent: live.errors, byKind: Object.fromEntries(live.errorKinds) }),
    'api/harvest': () => live.harvest,
    'api/series': () => live.series,
    'api/arms': () => live.arms,
    'api/learned': () => live.learned(),
    'api/references': () => references,
    'api/cluster': () => cluster?.snapshot ?? null,
    'api/snapshot': snapshot,
  };

  const controls: Record<string, (body: Record<string, unknown>) => unknown> = {
    'api/control/pause': () => {
      control.pause();
      return { paused: true };
    },
    'api/control/resume': () => {
      control.resume();
      return { paused: false };
    },
    'api/control/stop': () => {
      control.stop();
      return { stopping: true };
    },
    'api/control/seeds': (body) => ({ added: control.addSeeds(Array.isArray(body.urls) ? body.urls.map(String) : String(body.urls ?? '').split(/\s+/)) }),
    'api/control/block': (body) => ({ blocked: control.blockPld(String(body.pld ?? '')) }),
  };

  async function serve(path: string, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (path.startsWith('api/control/')) {
      const act = controls[path];
      if (act === undefined) return sendJson(res, 404, { error: `Unknown control ${path}.` });
      if (req.method !== 'POST') return sendJson(res, 405, { error: 'Use POST.' }, { Allow: 'POST' });
      const refusal = checkControlAccess(req, host, token);
      if (refusal) return sendJson(res, refusal.status, { error: refusal.message });
      let body: Record<string, unknown>;
      try {
        const text = await readSmallBody(req, 64 * 1024);
        body = text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch (err) {
        return sendJson(res, 400, { error: `The body is not JSON: ${(err as Error).message}` });
      }
      try {
        const result = act(body ?? {});
        return sendJson(res, 200, { ok: true, ...(result as object), status: live.status() });
      } catch (err) {
        const code = err instanceof RdfscoutError ? err.code : 'RDFSCOUT_INTERNAL';
        return sendJson(res, 400, { error: (err as Error).message, code });
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Use GET.' }, { Allow: 'GET, HEAD' });
    if (path === 'api/events') return stream.open(res, snapshot());
    if (path === 'api/links' || path === 'api/links.csv') {
      const table = await readLinkTable(state, url.searchParams, path.endsWith('.csv') ? 'csv' : 'json');
      res.writeHead(table.status, { 'Content-Type': table.type, 'Cache-Control': 'no-store' }).end(table.body);
      return;
    }
    const route = getRoutes[path];
    if (route) return sendJson(res, 200, route());
    const asset = assets.get(path);
    if (asset === null) return sendJson(res, 404, { error: `Not found: /${path}` });
    const { type, body } = await asset;
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, 'Cache-Control': 'no-cache' }).end(req.method === 'HEAD' ? undefined : body);
  }

  return {
    live,
    handle(req, res) {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = url.pathname.replace(/^\/+/, '');
      if (!path.startsWith('api/') && !assets.has(path)) return false;
      serve(path, url, req, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: (err as Error).message });
        else res.destroy(err as Error);
      });
      return true;
    },
    finish() {
      live.finished = true;
      live.sample();
      stream.broadcast('delta', delta(true));
    },
    close() {
      clearInterval(timer);
      offControl();
      diagnostics.unsubscribe(RECORD_CHANNEL, onRecord);
      stream.close();
    },
  };
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers }).end(JSON.stringify(value));
}

async function readSmallBody(req: IncomingMessage, max: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new Error(`larger than ${max} bytes`);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}
