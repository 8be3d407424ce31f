// A real Chromium (Debian's, driven by playwright-core) for the dashboard and report tests: every request that
// leaves the page's origin is blocked and recorded, and console errors are collected, so a test can fail on either.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { makeTempDir } from './temp-dir.ts';

const CHROMIUM = process.env.RDFSCOUT_CHROMIUM ?? '/usr/bin/chromium';
/** Screenshots of the browser tests (gitignored). */
const ARTEFACTS = join(import.meta.dirname, '../../test-artefacts');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface GuardedPage {
  page: Page;
  /** Requests that left the origin (blocked), and every request made. */
  blocked: string[];
  requests: string[];
  /** Console errors and uncaught page errors. */
  errors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh profile folder; `close()` removes it. */
export async function launchBrowser(): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const { dir: profile, remove } = await makeTempDir('chromium');
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport: { width: 1280, height: 1400 } });
  return {
    browser: context,
    close: async () => {
      await context.close();
      await remove();
    },
  };
}

/**
 * A page that may talk only to `origin` (an `http://host:port` or `null` for none at all: a `file:` page). `data:`
 * URLs are allowed (they make no request).
 */
export async function guardedPage(context: BrowserContext | Browser, origin: string | null): Promise<GuardedPage> {
  const page = await context.newPage();
  const blocked: string[] = [];
  const requests: string[] = [];
  const errors: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    const allowed = url.startsWith('data:') || (origin !== null && new URL(url).origin === origin) || (origin === null && url.startsWith('file:'));
    if (allowed) return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  return {
    page,
    blocked,
    requests,
    errors,
    async screenshot(name) {
      await mkdir(ARTEFACTS, { recursive: true });
      const path = join(ARTEFACTS, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    close: () => page.close(),
  };
}
