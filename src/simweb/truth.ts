// Ground truth of a simulated web: one record per URL (thesis §2 labels, depth, HTTP behaviour), as objects or JSON lines.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { SimDoc, TruthRecord } from './types.ts';
import type { WebModel } from './web.ts';
import { calendarTruth, lookup, truthOf } from './web.ts';

/** Every document of every site, site by site in document order (calendar months beyond the materialised ones excluded). */
export function* truthRecords(web: WebModel): Generator<TruthRecord> {
  for (const site of web.sites) for (const doc of site.docs) yield truthOf(site, doc);
}

/** The truth of one URL; calendar months beyond the graph get a synthetic record; unknown URLs `undefined`. */
export function truthForUrl(web: WebModel, url: string): TruthRecord | undefined {
  const found = lookup(web, url);
  if (found.kind === 'doc') return truthOf(found.site, found.doc as SimDoc);
  if (found.kind === 'calendar') return calendarTruth(found.site, found.month);
  return undefined;
}

/** The truth as JSON lines (no trailing newline on each string). */
export function* truthLines(web: WebModel): Generator<string> {
  for (const rec of truthRecords(web)) yield JSON.stringify(rec);
}

/** Writes the truth as JSON lines to `path`; resolves with the number of records. */
export async function writeTruth(web: WebModel | { model: WebModel }, path: string): Promise<number> {
  const model = 'model' in web ? web.model : web;
  const out = createWriteStream(path, { encoding: 'utf8' });
  let n = 0;
  let chunk = '';
  for (const line of truthLines(model)) {
    chunk += `${line}\n`;
    n++;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return n;
}
