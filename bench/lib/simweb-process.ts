// **simweb-process** serves a simulated web in its own process (forked by the benchmarks), so the crawler under test
// and the server do not share one event loop. Talks to its parent over IPC.
// Messages in:  { type: 'cpu' } → { type: 'cpu', user, system, stats } (µs since start; the web's request stats),
//               { type: 'close' } → exits.
// Message out at start: { type: 'ready', proxyUrl, seeds, documents, htmlDocuments }.
import { parseArgs } from 'node:util';
import { startSimweb } from '../../src/simweb/index.ts';

const { values } = parseArgs({
  options: {
    profiles: { type: 'string', default: 'mixed' },
    scale: { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
  },
});

const web = await startSimweb({ profiles: values.profiles, scale: Number(values.scale), seed: Number(values.seed), latencyMs: 0, slowMs: 0 });
let html = 0;
for (const site of web.model.sites) for (const d of site.docs) if (d.kind === 'html') html++;

const send = (msg: unknown): void => {
  process.send?.(msg);
};
process.on('message', (msg: { type: string }) => {
  if (msg.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ type: 'cpu', user, system, stats: web.stats() });
  } else if (msg.type === 'reset') {
    web.resetStats();
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
