// **crawl-child** runs one crawl of the real-sites bench in its own process (so that NODE_EXTRA_CA_CERTS, read at
// start-up, makes it trust the bench's self-signed certificate) and writes the records the figures need as JSON.
// Usage: node crawl-child.ts '<RunCrawlOptions as JSON>' OUT.json
import { writeFileSync } from 'node:fs';
import { runCrawl } from '../../test/helpers/run-crawl.ts';

/** The part of a crawl record the bench reads. */
export interface ChildRecord {
  url: string;
  finalUrl: string;
  status: number | null;
  contentType: string | null;
  detectedType: string | null;
  rdfFormat: string | null;
  triples: number;
  error: string | null;
  errorMessage: string | null;
}

export interface ChildResult {
  records: ChildRecord[];
  stoppedBy: string;
  ms: number;
}

const [json, out] = process.argv.slice(2);
if (json === undefined || out === undefined) throw new Error('usage: crawl-child.ts OPTIONS_JSON OUT.json');
const run = await runCrawl(JSON.parse(json));
const result: ChildResult = {
  records: run.records.map((r) => ({
    url: r.url,
    finalUrl: r.finalUrl,
    status: r.status,
    contentType: r.contentType,
    detectedType: r.detectedType,
    rdfFormat: r.rdfFormat,
    triples: r.triples,
    error: r.error,
    errorMessage: r.errorMessage === null ? null : r.errorMessage.slice(0, 300),
  })),
  stoppedBy: run.summary.stoppedBy,
  ms: run.ms,
};
writeFileSync(out, JSON.stringify(result));
