// DeadOrigins (crawl-log/dead-origins.ts): the origins whose last records are failures with no answer, from records.
import { describe, expect, it } from 'vitest';
import { DeadOrigins } from '../../src/crawl-log/dead-origins.ts';
import type { CrawlRecord } from '../../src/crawl-log/record.ts';

const rec = (url: string, status: number | null, error: string | null = null, errorMessage: string | null = null) =>
  ({ url, finalUrl: url, status, outcome: error === null ? 'ok' : status === null ? 'failed' : 'http-error', error, errorMessage }) as unknown as CrawlRecord;

describe('DeadOrigins', () => {
  it('names origins whose last fetches got no response, not those that answered last or answered 5xx to robots.txt', () => {
    const d = new DeadOrigins();
    d.add(rec('http://dead/a', null, 'RDFSCOUT_ROBOTS_UNAVAILABLE', 'robots.txt of http://dead is unavailable (ECONNREFUSED: connect ECONNREFUSED); retry later'));
    d.add(rec('http://dead/b', null, 'RDFSCOUT_CONNECTION_FAILED', 'ECONNREFUSED'));
    d.add(rec('http://busy/a', null, 'RDFSCOUT_ROBOTS_UNAVAILABLE', 'robots.txt of http://busy is unavailable (HTTP 503); retry later'));
    d.add(rec('http://gone/a', 200));
    d.add(rec('http://gone/b', null, 'RDFSCOUT_CONNECT_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT: timeout'));
    d.add(rec('http://back/a', null, 'RDFSCOUT_CONNECTION_FAILED', 'ECONNRESET'));
    d.add(rec('http://back/b', 404, 'RDFSCOUT_HTTP_STATUS'));
    expect(d.list()).toEqual([
      { origin: 'http://dead', failures: 2, answeredBefore: false, reason: 'ECONNREFUSED' },
      { origin: 'http://gone', failures: 1, answeredBefore: true, reason: 'UND_ERR_CONNECT_TIMEOUT: timeout' },
    ]);
  });
});
