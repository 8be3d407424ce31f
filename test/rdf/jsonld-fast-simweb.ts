// The JSON-LD the simulated web serves: embedded script blocks and JSON-LD documents, rendered as the server would.
import { buildWeb, respond } from '../../src/simweb/index.ts';

export interface SimJsonLd {
  url: string;
  text: string;
  /** A `<script type="application/ld+json">` block of an HTML page (else a whole JSON-LD document). */
  embedded: boolean;
}

const SCRIPT = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/g;

/**
 * Every JSON-LD block and document of every profile's sites (seed `seed`, scale 0.3), at most `perSite` of each
 * kind per site so that the test stays short.
 */
export function simwebJsonLd(seed: number, perSite = 40): SimJsonLd[] {
  const web = buildWeb({ profiles: 'all', seed, scale: 0.3 });
  const out: SimJsonLd[] = [];
  for (const site of web.sites) {
    let blocks = 0;
    let docs = 0;
    for (const doc of site.docs) {
      if (doc.status !== 200) continue;
      const isJsonLd = doc.kind === 'rdf' && doc.format === 'jsonld';
      const isEmbedded = doc.kind === 'html' && doc.embed === 'jsonld';
      if ((!isJsonLd || docs >= perSite) && (!isEmbedded || blocks >= perSite)) continue;
      const url = `http://${site.host}${doc.path}`;
      const body = respond(web, url).body.toString('utf8');
      if (isJsonLd) {
        docs++;
        out.push({ url, text: body, embedded: false });
      } else {
        for (const m of body.matchAll(SCRIPT)) {
          blocks++;
          out.push({ url, text: m[1] as string, embedded: true });
        }
      }
    }
  }
  return out;
}
