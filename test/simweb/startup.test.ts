// A web of 100,000+ documents starts quickly (bodies are rendered on request).
import { describe, expect, it } from 'vitest';
import { startSimweb } from '../../src/simweb/index.ts';
import { proxyGet } from './helpers.ts';

describe('simweb start-up', () => {
  it('starts a 100k-document web and serves it', async () => {
    const t0 = performance.now();
    const web = await startSimweb({ profiles: 'mixed', seed: 1, scale: 0.85 });
    const ms = performance.now() - t0;
    try {
      const documents = web.sites.reduce((n, s) => n + s.documents, 0);
      console.log(`simweb: ${documents} documents on ${web.sites.length} sites started in ${ms.toFixed(0)} ms`);
      expect(documents).toBeGreaterThanOrEqual(100_000);
      expect(web.sites.length).toBe(25);
      const home = await proxyGet(web.proxyUrl, web.sites[0]?.startUrl as string);
      expect(home.status).toBe(200);
    } finally {
      await web.close();
    }
  }, 30_000);
});
