// The thesis's two-queue variant (thesis §8.2, Figure 3-5) in a real crawl through the CLI.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openState, type SublevelName } from '../../src/state/open-state.ts';
import { runCli as cli } from '../helpers/run-cli.ts';
import { startTinySite, type TinySite } from '../helpers/tiny-site.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

/** The URLs each queue of a stopped crawl has seen (its `seen` sublevels): R links in one, HTML links in the other. */
async function seenByQueue(out: string): Promise<Record<'rdf' | 'html', number>> {
  const state = await openState(out, { index: false });
  try {
    const count = async (name: SublevelName) => {
      let n = 0;
      for await (const _ of state.sub[name].keys()) n += 1;
      return n;
    };
    return { rdf: await count('seen-rdf'), html: await count('seen') };
  } finally {
    await state.close();
  }
}

describe('--queues two', () => {
  let site: TinySite;
  let dir: string;
  const folder = useTempDir({ per: 'file' });
  beforeAll(async () => {
    site = await startTinySite();
    dir = folder.dir;
  });
  afterAll(async () => {
    await site.close();
  });

  it('finds the same RDF as one queue, resumes with both queues, and refuses a switch on resume', async () => {
    const base = ['--allow-private', '--delay-ms', '0', '--concurrency', '2', '--host-concurrency', '2', '--json', '--quiet'];
    const one = JSON.parse((await cli(['crawl', `${site.base}/`, '--out', join(dir, 'one'), ...base])).stdout);
    expect(await seenByQueue(join(dir, 'one'))).toMatchObject({ rdf: 0 }); // one queue: nothing in the RDF queue
    const out = join(dir, 'two');
    // First half of the budget, then a resume that finishes the crawl.
    const first = JSON.parse((await cli(['crawl', `${site.base}/`, '--out', out, '--queues', 'two', '--rdf-share', '0.5', '--max-docs', '8', ...base])).stdout);
    expect(first.fetched).toBe(8); // requests sent (robots refusals are counted apart, in denied)
    // Predicted-RDF links went to the RDF queue, HTML links to the HTML queue.
    const queues = await seenByQueue(out);
    expect(queues.rdf).toBeGreaterThan(0);
    expect(queues.html).toBeGreaterThan(0);
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
