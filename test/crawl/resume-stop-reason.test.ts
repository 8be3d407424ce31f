// A crawl SIGKILLed after a fetch whose links --max-depth dropped, then resumed with nothing left: it stops for
// max-depth, as one process does, not frontier-empty. Found by the differential (seed 983: one process killed once the
// live sites were exhausted): the count of dropped links was stored only when a run ended, so a killed run lost it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startHttpServer } from '../helpers/http-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { startWorker } from '../helpers/workers.ts';

describe('the stop reason of a resume after a SIGKILL', () => {
  it('is max-depth when the killed run dropped links for --max-depth', async () => {
    // / links /a.html (depth 1), which links /b.html (depth 2: dropped at --max-depth 1).
    const site = await startHttpServer((req, res) => {
      const page = (href: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><a href="${href}">next</a></body></html>`);
      if (req.url === '/') page('/a.html');
      else if (req.url === '/a.html') page('/b.html');
      else res.writeHead(404).end();
    });
    try {
      const out = join(await tempDir(), 'crawl');
      const args = [`${site.origin}/`, '--out', out, '--allow-private', '--delay-ms', '0', '--max-depth', '1', '--json', '--quiet'];
      const one = await runCli(['crawl', ...args.map((a) => (a === out ? `${out}-one` : a))]);
      expect(one.code, one.stderr).toBe(0);
      expect(JSON.parse(one.stdout).stoppedBy).toBe('max-depth');
      // Killed right after /a.html's commit (its link to /b.html dropped): nothing is left to fetch.
      const killed = startWorker(args, { pauseAt: 'after-commit:2' });
      const paused = await killed.waitFor(/RDFSCOUT_TEST_PAUSED after-commit (\S+)/);
      expect(paused[1]).toBe(`${site.origin}/a.html`);
      killed.child.kill('SIGKILL');
      await killed.ended('the killed crawl to exit');
      const resumed = await runCli(['crawl', '--out', out, '--json', '--quiet']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ stoppedBy: 'max-depth', fetched: 2 }); // fetched: over the crawl's runs
    } finally {
      await site.close();
    }
  }, 120_000);
});
