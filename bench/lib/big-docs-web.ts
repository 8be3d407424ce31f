// **big-docs-web** serves, in its own process, a site of small pages among which a few large Turtle documents hide
// (bench/threads.ts: does a 2 MB document stall the fetching of the others?). Talks to its parent over IPC.
// Message out at start: { type: 'ready', origin }. In: { type: 'close' } → exits.
// The site: /p/N.html links to /p/(10N+1…10N+10).html and to /r/N.ttl (a small Turtle document); every
// `--big-every`-th page also links to /big/N.ttl, a Turtle report of `--big-triples` triples (~2 MB at 50,000).
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { reportTurtle } from './report-turtle.ts';

const { values } = parseArgs({ options: { 'big-every': { type: 'string', default: '100' }, 'big-triples': { type: 'string', default: '50000' } } });
const bigEvery = Number(values['big-every']);
const big = reportTurtle(Number(values['big-triples']));

function page(n: number): string {
  const links = Array.from({ length: 10 }, (_, i) => `<li><a href="/p/${10 * n + i + 1}.html">page ${10 * n + i + 1}</a></li>`);
  links.push(`<li><a href="/r/${n}.ttl">data ${n}</a></li>`);
  if (n % bigEvery === 0) links.push(`<li><a href="/big/${n}.ttl">report ${n}</a></li>`);
  return `<!doctype html><html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1><p>${'Some text of the page. '.repeat(20)}</p><ul>${links.join('')}</ul></body></html>`;
}

function small(n: number): string {
  const lines = ['@prefix ex: <http://example.org/ns#> .'];
  for (let i = 0; i < 20; i++) lines.push(`<http://example.org/r/${n}/${i}> ex:value "${n}-${i}" ; ex:next <http://example.org/r/${n}/${i + 1}> .`);
  return `${lines.join('\n')}\n`;
}

const server = createServer((req, res) => {
  const m = /^\/(p|r|big)\/(\d+)\.(html|ttl)$/.exec(req.url ?? '');
  if (req.url === '/robots.txt') res.writeHead(404).end();
  else if (m === null) res.writeHead(404).end();
  else if (m[1] === 'p') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(Number(m[2])));
  else if (m[1] === 'r') res.writeHead(200, { 'content-type': 'text/turtle' }).end(small(Number(m[2])));
  else res.writeHead(200, { 'content-type': 'text/turtle' }).end(big);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.send?.({ type: 'ready', origin: `http://127.0.0.1:${port}` });
});
process.on('message', (msg: { type: string }) => {
  if (msg.type === 'close') server.close(() => process.exit(0));
});
