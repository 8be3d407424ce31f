// The thesis's two-queue variant (§8.2, Figure 3-5) in a real crawl through the CLI.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../bin/rdfscout.js');
async function cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args]);
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe('--queues two', () => {
  let site: TinySite;
  let dir: string;
  beforeAll(async () => {
    site = await startTinySite();
    dir = await mkdtemp(join(tmpdir(), 'rdfscout-two-'));
  });
  afterAll(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds the same RDF as one queue, resumes with both queues, and refuses a switch on resume', async () => {
    const base = ['--allow-private', '--delay-ms', '0', '--concurrency', '2', '--host-concurrency', '2', '--json', '--quiet'];
    const one = JSON.parse((await cli(['crawl', `${site.base}/`, '--out', join(dir, 'one'), ...base])).stdout);
    const out = join(dir, 'two');
    // First half of the budget, then a resume that finishes the crawl.
    const first = JSON.parse((await cli(['crawl', `${site.base}/`, '--out', out, '--queues', 'two', '--rdf-share', '0.5', '--max-docs', '8', ...base])).stdout);
    expect(first.fetched).toBe(8); // requests sent (robots refusals are counted apart, in denied)
    const rest = JSON.parse((await cli(['crawl', '--out', out, '--max-docs', '100', ...base])).stdout);
    expect(rest.resumed).toBe(true);
    expect(rest.rdfDocuments).toBe(one.rdfDocuments);
    const docs = (await cli(['docs', out])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { url: string });
    expect(new Set(docs.map((d) => d.url)).size).toBe(docs.length);
    const switched = await cli(['crawl', '--out', out, '--queues', 'one']);
    expect(switched.code).toBe(2);
    expect(switched.stderr).toMatch(/--queues two/);
  });
});
