// beebot-ras vs beebot-univ: external links concentrated on few pages vs spread over many (BeeBot §4).
import { describe, expect, it } from 'vitest';
import { buildWeb, truthRecords, type TruthRecord } from '../../src/simweb/index.ts';

function shape(profile: string): { sites: number; zeroShare: number; top1Share: number; total: number } {
  const web = buildWeb({ profiles: profile, seed: 9, scale: 0.2 });
  const pages = [...truthRecords(web)].filter((r: TruthRecord) => r.status === 200 && (r.label === 'H' || r.label === 'HR'));
  const ext = pages.map((r) => r.externalLinks ?? 0).sort((a, b) => b - a);
  const total = ext.reduce((a, b) => a + b, 0);
  const top = ext.slice(0, Math.ceil(pages.length / 100)).reduce((a, b) => a + b, 0);
  return { sites: web.sites.length, zeroShare: ext.filter((x) => x === 0).length / ext.length, top1Share: top / total, total };
}

describe('beebot profiles', () => {
  it('RAS: most pages without external links, the top 1% of pages hold most of them; universities: spread', () => {
    const ras = shape('beebot-ras');
    const univ = shape('beebot-univ');
    console.log('beebot shapes', JSON.stringify({ ras, univ }));
    expect(ras.sites).toBe(10);
    expect(univ.sites).toBe(10);
    expect(ras.zeroShare).toBeGreaterThan(0.97);
    expect(ras.top1Share).toBeGreaterThan(0.7);
    expect(univ.zeroShare).toBeLessThan(ras.zeroShare - 0.03);
    expect(univ.top1Share).toBeLessThan(0.4);
    expect(ras.top1Share - univ.top1Share).toBeGreaterThan(0.4);
    expect(ras.total).toBeGreaterThan(500);
    expect(univ.total).toBeGreaterThan(500);
  });

  it('sizes the sites like Table 1, scaled', () => {
    const web = buildWeb({ profiles: 'beebot-ras', seed: 1, scale: 0.1 });
    const pushkin = web.sites.find((s) => s.host === 'www.pushkinskijdom-sim.ru');
    expect(pushkin?.docs.length).toBeGreaterThan(3500);
    expect(pushkin?.docs.length).toBeLessThan(4500);
    expect(pushkin?.pld).toBe('pushkinskijdom-sim.ru');
  });
});
