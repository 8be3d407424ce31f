// Runs one in-process crawl to its end and returns its records, in fetch order (for crawl tests on local webs).
import { Crawler } from '../../src/crawl/crawler.ts';
import type { CrawlOptions } from '../../src/crawl/options.ts';
import { readRecords } from '../../src/crawl/records.ts';
import type { CrawlRecord } from '../../src/crawl/types.ts';

/** Opens (or resumes) the crawl in `options.out`, runs it, closes it, and returns every record. */
export async function crawlRecords(options: Partial<CrawlOptions> & { out: string }): Promise<CrawlRecord[]> {
  const crawler = await Crawler.open(options);
  try {
    await crawler.run();
    const out: CrawlRecord[] = [];
    for await (const r of readRecords(crawler.state)) out.push(r);
    return out;
  } finally {
    await crawler.close();
  }
}
