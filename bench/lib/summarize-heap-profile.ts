// **summarize-heap-profile** prints where a sampling heap profile (bench/throughput.ts --alloc-prof) allocated: bytes by
// function, by the nearest src/ frame (the crawl's area that asked), or by call stack.
// Run: node_modules/.bin/node bench/lib/summarize-heap-profile.ts FILE.heapprofile [--top 40] [--by function|area|stack] [--depth 4]
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

/** A frame as `name file:line`, the file shortened to its package or src/ path. */
function frameName(f: CallFrame): string {
  const file = f.url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '').replace(/.*\/(src|bench)\//, '$1/');
  return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
}

/** Bytes allocated per key, walking the tree with the stack (root first) of each node. */
function allocatedBy(head: HeapNode, keyOf: (stack: readonly CallFrame[]) => string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (n: HeapNode, stack: CallFrame[]): void => {
    stack.push(n.callFrame);
    if (n.selfSize > 0) {
      const key = keyOf(stack);
      out.set(key, (out.get(key) ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c, stack);
    stack.pop();
  };
  walk(head, []);
  return out;
}

/** The nearest frame in rdfscout's src/ (its folder and file), or the allocating frame's package. */
function areaOf(stack: readonly CallFrame[]): string {
  for (let i = stack.length - 1; i >= 0; i--) {
    const m = /\/src\/(.+?)\.ts$/.exec((stack[i] as CallFrame).url);
    if (m !== null) return `src/${m[1]}`;
  }
  const top = stack[stack.length - 1] as CallFrame;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(top.url)?.[1];
  return pkg ?? (top.url === '' ? `(${top.functionName || 'native'})` : top.url.replace(/^file:\/\//, ''));
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '40' }, by: { type: 'string', default: 'area' }, depth: { type: 'string', default: '4' } },
  });
  const file = positionals[0];
  if (file === undefined) throw new Error('usage: summarize-heap-profile.ts FILE.heapprofile [--top 40] [--by function|area|stack] [--depth 4]');
  const profile = JSON.parse(await readFile(file, 'utf8')) as { head: HeapNode };
  const depth = Number(values.depth);
  const keyOf =
    values.by === 'function'
      ? (s: readonly CallFrame[]) => frameName(s[s.length - 1] as CallFrame)
      : values.by === 'stack'
        ? (s: readonly CallFrame[]) => s.slice(-depth).reverse().map(frameName).join(' < ')
        : areaOf;
  const bytes = allocatedBy(profile.head, keyOf);
  let total = 0;
  for (const b of bytes.values()) total += b;
  console.log(`\nbytes allocated by ${values.by} (${file}, ${(total / 1e6).toFixed(1)} MB sampled)`);
  for (const [key, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, Number(values.top))) {
    console.log(`${(b / 1e6).toFixed(1).padStart(8)} MB ${((100 * b) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
}

await main();
