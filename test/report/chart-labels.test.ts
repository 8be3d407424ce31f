// The report's and dashboard's charts (src/report/charts.js) keep every label readable with six crawls and forty PLDs:
// measured in a real Chromium, no two text boxes of a chart overlap and none reaches outside its chart.
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { armsChart, barsChart, harvestChart } from '../../src/report/charts.js';
import { guardedPage, launchBrowser } from '../helpers/browser.ts';

const CRAWLS = ['focused (fc-r+hr)', 'breadth-first (bfs)', 'learned yield (yield)', 'topical agent (topical+hr)', 'oracle', 'pattern oracle'];
const PLDS = Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? `data.department-of-statistics-${i}.example-university.ac.uk` : `site-${i}.example.org`));

const dom = () => parseHTML('<!doctype html><html><body></body></html>').document;

/** Every chart the report draws, with the most crawls and PLDs it is asked to show. */
function charts(): Record<string, string> {
  const harvest = CRAWLS.map((name, i) => ({ name, points: Array.from({ length: 200 }, (_, k): [number, number] => [k + 1, Math.round(k * (0.2 + i / 10))]) }));
  const plds = CRAWLS.flatMap((group, i) => PLDS.slice(0, 20).map((key, j) => ({ key, value: (i + 1) * (j + 3), group })));
  const precision = CRAWLS.flatMap((group, i) => ['R', 'HR', 'H'].map((key, j) => ({ key, value: 0.3 + 0.1 * ((i + j) % 7), group })));
  const pulls = PLDS.flatMap((arm, i) => Array.from({ length: 20 }, (_, k) => ({ x: k * 10, arm, value: k * (i % 7) })));
  const errors = ['timeout', 'connection refused', 'HTTP 404 not found', 'HTTP 503 service unavailable', 'size limit'].map((key, i) => ({ key, value: 10 * i + 1 }));
  return {
    harvest: harvestChart(Plot, harvest, { document: dom(), width: 760, height: 340 }).outerHTML,
    plds: barsChart(Plot, plds, { document: dom(), width: 760, xLabel: 'RDF documents' }).outerHTML,
    precision: barsChart(Plot, precision, { document: dom(), width: 760, xLabel: 'precision (%)', percent: true, marginLeft: 60 }).outerHTML,
    pulls: armsChart(Plot, pulls, { document: dom(), width: 760, xLabel: 'fetches', yLabel: 'pulls' }).outerHTML,
    errors: barsChart(Plot, errors, { document: dom(), width: 760, xLabel: 'records', marginLeft: 240 }).outerHTML,
    pldsAlone: barsChart(Plot, PLDS.map((key, i) => ({ key, value: i + 1 })), { document: dom(), width: 760, xLabel: 'RDF documents' }).outerHTML,
  };
}

interface Box {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

describe('chart labels', () => {
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('do not overlap and stay inside their chart, with six crawls and forty PLDs', async () => {
    const g = await guardedPage(browser.browser, null);
    const html = Object.entries(charts())
      .map(([id, svg]) => `<section id="${id}" style="margin:24px 0">${svg}</section>`)
      .join('\n');
    await g.page.setContent(`<!doctype html><html><body style="font-family:system-ui,sans-serif;margin:16px">${html}</body></html>`);
    const measured = await g.page.$$eval('section', (sections) =>
      sections.map((s) => {
        const box = (r: { left: number; top: number; right: number; bottom: number }) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
        const svgs = [...s.querySelectorAll('svg')].filter((svg) => svg.querySelector('text') !== null);
        const texts = svgs.flatMap((svg) =>
          [...svg.querySelectorAll('text')]
            .filter((t) => (t.textContent ?? '').trim() !== '')
            .map((t) => ({ text: t.textContent ?? '', ...box(t.getBoundingClientRect()), chart: box(svg.getBoundingClientRect()) })),
        );
        return { id: s.id, texts };
      }),
    );
    await g.screenshot('chart-labels');
    const problems: string[] = [];
    for (const { id, texts } of measured) {
      expect(texts.length, `${id} has labels`).toBeGreaterThan(0);
      for (const t of texts) {
        const c = t.chart;
        if (t.left < c.left - 0.5 || t.right > c.right + 0.5 || t.top < c.top - 0.5 || t.bottom > c.bottom + 0.5) problems.push(`${id}: "${t.text}" reaches outside its chart`);
      }
      const boxes: Box[] = texts;
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i] as Box;
          const b = boxes[j] as Box;
          // 1 px of slack: glyph boxes of neighbouring ticks may touch.
          const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
          if (overlap) problems.push(`${id}: "${a.text}" overlaps "${b.text}"`);
        }
      }
    }
    const byKind = new Map<string, number>();
    for (const p of problems) byKind.set(p.replace(/"[^"]*"/g, "X"), (byKind.get(p.replace(/"[^"]*"/g, "X")) ?? 0) + 1);
    expect([...byKind].map(([k, n]) => `${n} × ${k}`)).toEqual([]);
  }, 60_000);
});
