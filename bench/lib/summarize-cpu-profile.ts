// **summarize-cpu-profile** prints where a `.cpuprofile` (node --cpu-prof) spends its time: self time by function
// and by file (package), largest first.
// Run: node_modules/.bin/node bench/lib/summarize-cpu-profile.ts FILE.cpuprofile [--top 40] [--callers NAME [--depth 4]] [--inclusive] [--areas]
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Self time (ms) per key, from the sample deltas. */
export function selfTimes(p: Profile, keyOf: (n: ProfileNode) => string): Map<string, number> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  for (let i = 0; i < p.samples.length; i++) {
    const node = byId.get(p.samples[i] as number) as ProfileNode;
    const key = keyOf(node);
    out.set(key, (out.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  }
  return out;
}

/** Self time of functions named `name`, keyed by their call chain (`depth` frames up). */
export function callerTimes(p: Profile, name: string, depth: number): Map<string, number> {
  const parent = new Map<number, ProfileNode>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${shortFile(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  const own = selfTimes(p, (n) => String(n.id));
  const out = new Map<string, number>();
  for (const n of p.nodes) {
    if (n.callFrame.functionName !== name) continue;
    const chain: string[] = [];
    for (let q = parent.get(n.id), i = 0; q && i < depth; q = parent.get(q.id), i++) chain.push(label(q));
    const key = chain.join(' < ');
    out.set(key, (out.get(key) ?? 0) + (own.get(String(n.id)) ?? 0));
  }
  return out;
}

/** Total time (ms) per key: each sample counts once for every distinct key on its stack (self + callees). */
export function inclusiveTimes(p: Profile, keyOf: (n: ProfileNode) => string): Map<string, number> {
  const parent = new Map<number, ProfileNode>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const perNode = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) perNode.set(p.samples[i] as number, (perNode.get(p.samples[i] as number) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  const out = new Map<string, number>();
  for (const [id, ms] of perNode) {
    const keys = new Set<string>();
    for (let q = byId.get(id); q; q = parent.get(q.id)) keys.add(keyOf(q));
    for (const k of keys) out.set(k, (out.get(k) ?? 0) + ms);
  }
  return out;
}

/**
 * Self time (ms) per area of the crawl: each sample goes to the nearest `src/` frame on its stack (so parse5 called by
 * extractLinks counts as links, LevelDB called by the state's transactions as state). Issue 18's per-page breakdown.
 */
export function areaTimes(p: Profile): Map<string, number> {
  const parent = new Map<number, ProfileNode>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n);
  const area = (n: ProfileNode): string => {
    const f = n.callFrame.functionName;
    if (f === '(idle)' || f === '(program)') return f;
    if (f === '(garbage collector)') return 'GC (main thread)';
    for (let q: ProfileNode | undefined = n; q; q = parent.get(q.id)) {
      const m = /\/src\/([a-z0-9-]+)\/([a-z0-9-]+)\.ts/.exec(q.callFrame.url);
      if (m === null) continue;
      const [dir, file] = [m[1] as string, m[2] as string];
      if (dir === 'state' || file === 'document-writer' || file === 'document-store') return 'state (transactions, indexer)';
      if (dir === 'rdf') return 'rdf (parsers, embedded data)';
      if (dir === 'relevance' || dir === 'strategies') return 'judging links';
      if (dir === 'crawl' || dir === 'crawl-log') return `${dir}/${file}`;
      return dir;
    }
    const url = n.callFrame.url;
    if (url.includes('/modules/') || url.includes('modules/esm')) return 'module loading';
    if (url.includes('undici') || url === 'node:net' || f === 'writeLatin1String') return 'undici, sockets';
    return 'other (event loop, streams, timers)';
  };
  return selfTimes(p, area);
}

function shortFile(url: string): string {
  if (url === '') return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] as string);
  }
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\/.*\//, '');
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '40' }, callers: { type: 'string' }, inclusive: { type: 'boolean', default: false }, areas: { type: 'boolean', default: false }, depth: { type: 'string', default: '4' } } });
  const top = Number(values.top);
  for (const file of positionals) {
    const p = JSON.parse(await readFile(file, 'utf8')) as Profile;
    const total = (p.endTime - p.startTime) / 1000;
    const print = (title: string, m: Map<string, number>) => {
      console.log(`\n${title} (${file}, ${Math.round(total)} ms profiled)`);
      for (const [k, ms] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
        console.log(`${ms.toFixed(0).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${k}`);
      }
    };
    if (values.callers !== undefined) {
      print(`callers of ${values.callers}`, callerTimes(p, values.callers, Number(values.depth)));
      continue;
    }
    if (values.areas) {
      print('self time by area (nearest src/ frame on the stack)', areaTimes(p));
      continue;
    }
    if (values.inclusive) {
      print('total time (self + callees) by function', inclusiveTimes(p, (n) => `${n.callFrame.functionName || '(anonymous)'} ${shortFile(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`));
      continue;
    }
    print('self time by file/package', selfTimes(p, (n) => shortFile(n.callFrame.url)));
    print('self time by function', selfTimes(p, (n) => `${n.callFrame.functionName || '(anonymous)'} ${shortFile(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`));
  }
}

await main();
