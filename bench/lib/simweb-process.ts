// **simweb-process** serves a simulated web in its own process (forked by the benchmarks), so the crawler under test
// and the server do not share one event loop. Talks to its parent over IPC.
// Messages in:  { type: 'cpu' } → { type: 'cpu', user, system, stats } (µs since start; the web's request stats),
//               { type: 'politeness' } → { type: 'politeness', report, firstStart, lastEnd } (with --log-requests:
//               checkPoliteness of the log without its per-PLD rows, and the span the requests cover, epoch ms),
//               { type: 'urls' } → { type: 'urls', urls, statuses } (with --log-requests: the URLs requested since the start
//               or the last reset, in start order, and the status each was answered with), { type: 'reset' } → { type: 'reset' } (stats and log cleared),
//               { type: 'close' } → exits.
// Message out at start: { type: 'ready', proxyUrl, seeds, documents, htmlDocuments }.
import { parseArgs } from 'node:util';
import { checkPoliteness, startSimweb } from '../../src/simweb/index.ts';

const { values } = parseArgs({
  options: {
    profiles: { type: 'string', default: 'mixed' },
    scale: { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
    copies: { type: 'string', default: '1' },
    'latency-ms': { type: 'string', default: '0' },
    'log-requests': { type: 'boolean', default: false },
    'html-pad-kb': { type: 'string', default: '0' },
  },
});

const web = await startSimweb({
  profiles: values.profiles,
  scale: Number(values.scale),
  seed: Number(values.seed),
  copies: Number(values.copies),
  latencyMs: Number(values['latency-ms']),
  slowMs: 0,
  logRequests: values['log-requests'],
  htmlPadBytes: Number(values['html-pad-kb']) * 1024,
});
let html = 0;
for (const site of web.model.sites) for (const d of site.docs) if (d.kind === 'html') html++;

const send = (msg: unknown): void => {
  process.send?.(msg);
};
process.on('message', (msg: { type: string }) => {
  if (msg.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ type: 'cpu', user, system, stats: web.stats() });
  } else if (msg.type === 'politeness') {
    const log = web.requestLog();
    const { byPld: _rows, ...report } = checkPoliteness(log);
    const firstStart = log.reduce((t, e) => Math.min(t, e.start), Number.POSITIVE_INFINITY);
    const lastEnd = log.reduce((t, e) => Math.max(t, e.end ?? e.start), 0);
    send({ type: 'politeness', report, firstStart, lastEnd });
  } else if (msg.type === 'urls') {
    const log = web.requestLog();
    send({ type: 'urls', urls: log.map((e) => e.url), statuses: log.map((e) => e.status) });
  } else if (msg.type === 'reset') {
    web.resetStats();
    web.clearRequestLog();
    send({ type: 'reset' });
  } else if (msg.type === 'close') {
    void web.close().finally(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
send({
  type: 'ready',
  proxyUrl: web.proxyUrl,
  seeds: web.sites.map((s) => s.startUrl),
  documents: web.sites.reduce((n, s) => n + s.documents, 0),
  htmlDocuments: html,
});
