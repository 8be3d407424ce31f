// The main job and the simulated-web commands, through the CLI as a user runs them.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ProxyAgent, request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliOk, startCli } from '../helpers/run-cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

describe('rdfscout demo', () => {
  it('crawls a small simulated web focused vs breadth-first and queries the result', async () => {
    const { stdout } = await runCliOk(['demo', '--scale', '0.1', '--budget', '60', '--seed', '3']);
    const row = (name: string) => stdout.split('\n').find((l) => l.trim().startsWith(name))?.trim().split(/\s{2,}/) ?? [];
    const focused = row('focused (fc-r+hr)');
    const bfs = row('breadth-first (bfs)');
    expect(focused).toHaveLength(8);
    expect(Number(focused[2])).toBeGreaterThan(Number(bfs[2])); // RDF documents found
    expect(Number(focused[2])).toBeLessThanOrEqual(Number(focused[4])); // never above the oracle
    expect(stdout).toMatch(/\?class\s+\| \?things\s+\| \?documents/);
    expect(stdout).toMatch(/\(\d+ rows?\)/);
    // It ends by writing a report with both harvest curves and the oracle's.
    const reportPath = /Report with the harvest curves: (\S+\.html)/.exec(stdout)?.[1];
    expect(reportPath).toBeDefined();
    const html = await readFile(reportPath!, 'utf8');
    await rm(reportPath!, { force: true });
    for (const name of ['focused (fc-r+hr)', 'breadth-first (bfs)', 'oracle']) expect(html).toContain(`<td>${name}</td>`);
    expect(html).not.toMatch(/<script/i);
  }, 120_000);
});

describe('rdfscout simweb', () => {
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    dir = folder.dir;
  });

  it('truth: JSON lines with a label per URL, the same for the same seed', async () => {
    const args = ['simweb', 'truth', '--profile', 'deri-like', '--seed', '2', '--scale', '0.05'];
    const a = (await runCliOk(args)).stdout;
    await runCliOk([...args, '--out', join(dir, 't.jsonl')]);
    expect(await readFile(join(dir, 't.jsonl'), 'utf8')).toBe(a);
    const lines = a.trim().split('\n').map((l) => JSON.parse(l) as { url: string; label: string });
    expect(lines.length).toBeGreaterThan(50);
    expect(new Set(lines.map((l) => l.label))).toEqual(new Set(['R', 'HR', 'H', 'N']));
  });

  it('serve: a forward proxy for the simulated hosts until interrupted', async () => {
    const child = startCli(['simweb', 'serve', '--profile', 'rossetti-like', '--seed', '1', '--scale', '0.05', '--port', '0']);
    try {
      await child.waitFor(/Ctrl-C to stop/, { stream: 'stdout' });
      const out = child.stdout();
      const { proxyUrl, sites } = JSON.parse(out.slice(0, out.indexOf('\n\n'))) as { proxyUrl: string; sites: Array<{ startUrl: string }> };
      const agent = new ProxyAgent({ uri: proxyUrl, proxyTunnel: false });
      try {
        const res = await request(sites[0]!.startUrl, { dispatcher: agent });
        expect(res.statusCode).toBe(200);
        expect(await res.body.text()).toMatch(/<html/i);
      } finally {
        await agent.close();
      }
    } finally {
      child.signal('SIGINT');
      await child.ended('simweb serve to exit on SIGINT');
    }
  });

  it('truth --copies N: every site N times, each copy on its own PLD', async () => {
    const base = ['simweb', 'truth', '--profile', 'deri-like', '--seed', '2', '--scale', '0.05'];
    const one = (await runCliOk(base)).stdout.trim().split('\n');
    const three = (await runCliOk([...base, '--copies', '3'])).stdout.trim().split('\n');
    const plds = new Set(three.map((l) => (JSON.parse(l) as { pld: string }).pld));
    expect(plds.size).toBe(3);
    expect(three.slice(0, one.length)).toEqual(one); // copy 1 is the web without copies
    expect(three.length).toBeGreaterThan(2 * one.length);
    expect(await runCli([...base, '--copies', '0'])).toMatchObject({ code: 2 });
  });

  it('rejects an unknown profile with exit code 2', async () => {
    expect(await runCli(['simweb', 'truth', '--profile', 'nowhere'])).toMatchObject({ code: 2 });
  });
});
