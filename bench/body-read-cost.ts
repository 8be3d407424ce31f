// **body-read-cost** times readBody (src/fetch/body-reader.ts) on real undici responses from a local HTTP server:
// CPU per 1,000 bodies of this checkout and, with --base, of another checkout's readBody, in alternated rounds in
// one process (issue 18: the identity read without async generators). Bodies are plain (identity) unless --gzip.
// Run: node_modules/.bin/node bench/body-read-cost.ts [--base /tmp/base-checkout] [--bodies 4000] [--rounds 6]
//      [--size 3000] [--concurrency 16] [--gzip]
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import type { readBody as ReadBody } from '../src/fetch/body-reader.ts';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    bodies: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '6' },
    size: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '16' },
    gzip: { type: 'boolean', default: false },
    serve: { type: 'boolean', default: false },
  },
});
const BODIES = Number(values.bodies);
const ROUNDS = Number(values.rounds);
const C = Number(values.concurrency);
const plain = Buffer.from('<p>page text</p>\n'.repeat(Math.ceil(Number(values.size) / 17)).slice(0, Number(values.size)));
const payload = values.gzip ? gzipSync(plain) : plain;

// The server runs in a child process (this file with --serve), so the CPU clock here is the client's alone.
if (process.argv.includes('--serve')) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'content-length': payload.length, ...(values.gzip ? { 'content-encoding': 'gzip' } : {}) });
    res.end(payload);
  });
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
  process.on('disconnect', () => process.exit(0));
} else {
  const child = fork(import.meta.filename, [...process.argv.slice(2), '--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((r) => child.once('message', (m) => r(m as number)));
  const origin = `http://127.0.0.1:${port}`;
  const dispatcher = new Agent({ connections: C });

  interface Side {
    name: string;
    readBody: typeof ReadBody;
  }
  const load = async (name: string, root: string): Promise<Side> => ({ name, readBody: ((await import(join(root, 'src/fetch/body-reader.ts'))) as { readBody: typeof ReadBody }).readBody });
  const sides: Side[] = [await load('this', join(import.meta.dirname, '..'))];
  if (values.base) sides.unshift(await load('base', values.base));

  /** Client CPU ms for BODIES requests whose bodies `side` reads. */
  async function round(side: Side): Promise<number> {
    let next = 0;
    let bytes = 0;
    const t0 = process.cpuUsage();
    const worker = async () => {
      while (next++ < BODIES) {
        const res = await request(`${origin}/p${next}`, { dispatcher });
        const body = await side.readBody(res.body, { contentEncoding: values.gzip ? 'gzip' : null, maxBodyBytes: 1e7, maxDecompressedBytes: 1e7, url: origin });
        bytes += body.length;
      }
    };
    await Promise.all(Array.from({ length: C }, worker));
    const cpu = process.cpuUsage(t0);
    if (bytes !== BODIES * plain.length) throw new Error(`${side.name}: read ${bytes} bytes, expected ${BODIES * plain.length}`);
    return (cpu.user + cpu.system) / 1000;
  }

  const times = new Map<string, number[]>(sides.map((s) => [s.name, []]));
  for (const s of sides) await round(s); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? sides : [...sides].reverse();
    for (const s of order) times.get(s.name)?.push(((await round(s)) / BODIES) * 1000);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  console.log(`readBody over undici, ${BODIES} bodies of ${plain.length} bytes${values.gzip ? ' (gzip)' : ''} per round, concurrency ${C}, ${ROUNDS} rounds`);
  console.log('client CPU ms per 1,000 bodies (the server is another process)');
  for (const [name, xs] of times) console.log(`  ${name.padEnd(5)} median ${median(xs).toFixed(0)}  [${xs.map((x) => x.toFixed(0)).join(' ')}]`);
  if (values.base) console.log(`this/base ${(median(times.get('this') as number[]) / median(times.get('base') as number[])).toFixed(3)}`);
  await dispatcher.close();
  child.disconnect();
}
