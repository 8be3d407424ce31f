// **buildWeb** turns profiles, a seed and a scale into site models; lookups from URL to document, links and truth.
import { ArgumentError } from '../errors.ts';
import { pldOf } from '../links/normalize-url.ts';
import { hashParts, Prng } from '../random/prng.ts';
import { monthName } from './profiles/noise.ts';
import { type ProfileSite, resolveProfiles } from './profiles/index.ts';
import { linkTarget, SiteBuilder } from './site-graph.ts';
import type { SimDoc, SimSite, SiteModel, TruthRecord } from './types.ts';

/** What a web is built from. */
export interface WebOptions {
  /** Profile names (`dbtune-like`, …, `thesis`, `tuning`, `held-out`, `mixed`, `all`); a comma-separated string is accepted. */
  profiles: string | readonly string[];
  /** Seed of every random choice. */
  seed: number;
  /** Multiplies every site's size (1 = the sources' sizes: thesis Table 4-3, BeeBot Table 1). Default 1. */
  scale?: number;
  /**
   * Serves every profile site this many times, each copy on its own PLD with its own seed (`dbtune-sim.org`,
   * `dbtune-sim-c2.org`, …): a web of many PLDs for distributed crawls (hundreds of PLDs from a few profiles). Default 1.
   */
  copies?: number;
}

/** A built web: sites by host. */
export interface WebModel {
  seed: number;
  sites: SiteModel[];
  byHost: Map<string, SiteModel>;
}

/** Builds the site graphs of a web (bodies are rendered later, on request). */
export function buildWeb(options: WebOptions): WebModel {
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale) || scale <= 0) throw new ArgumentError(`simweb scale must be a positive number, got ${options.scale}`);
  if (!Number.isInteger(options.seed)) throw new ArgumentError(`simweb seed must be an integer, got ${options.seed}`);
  const copies = options.copies ?? 1;
  if (!Number.isSafeInteger(copies) || copies < 1) throw new ArgumentError(`simweb copies must be an integer ≥ 1, got ${options.copies}`);
  const sites: SiteModel[] = [];
  const byHost = new Map<string, SiteModel>();
  const profiles = resolveProfiles(options.profiles);
  for (let copy = 1; copy <= copies; copy++) {
    for (const profile of profiles) {
      for (const base of profile.sites) {
        const spec = copy === 1 ? base : { ...base, host: copyHost(base.host, copy), shortName: `${base.shortName}-c${copy}` };
        const site = buildSite(options.seed, profile.name, spec, scale);
        sites.push(site);
        byHost.set(site.host, site);
      }
    }
  }
  return { seed: options.seed, sites, byHost };
}

/** The host of copy `copy` of a site: its PLD's first label gets `-cN` (`www.zin-sim.ru` → `www.zin-sim-c2.ru`). */
export function copyHost(host: string, copy: number): string {
  const pld = pldOf(host);
  const dot = pld.indexOf('.');
  return `${host.slice(0, host.length - pld.length)}${pld.slice(0, dot)}-c${copy}${pld.slice(dot)}`;
}

function buildSite(webSeed: number, profileName: string, spec: ProfileSite, scale: number): SiteModel {
  const seed = hashParts(webSeed, profileName, spec.host);
  const b = new SiteBuilder();
  spec.build(b, new Prng(seed), Math.max(Math.min(30, spec.size), Math.round(spec.size * scale)));
  const built = b.finish();
  return {
    host: spec.host,
    pld: pldOf(spec.host),
    startUrl: `http://${spec.host}/`,
    profile: profileName,
    name: spec.name,
    shortName: spec.shortName,
    seed,
    docs: built.docs,
    byPath: built.byPath,
    robots: built.robots,
    ...(built.calendar ? { calendar: built.calendar } : {}),
  };
}

/** The public description of a site. */
export function describeSite(site: SiteModel): SimSite {
  const { host, pld, startUrl, profile, name, shortName } = site;
  return { host, pld, startUrl, profile, name, shortName, documents: site.docs.length };
}

/** Absolute URL of a document. */
export function docUrl(site: SiteModel, doc: SimDoc): string {
  return `http://${site.host}${doc.path}`;
}

/** Where a URL lands: a document, a calendar month beyond the materialised ones, or nothing. */
export type Lookup =
  | { kind: 'doc'; site: SiteModel; doc: SimDoc }
  | { kind: 'calendar'; site: SiteModel; month: number }
  | { kind: 'missing'; site: SiteModel }
  | { kind: 'unknown-host' };

/** Finds what a URL serves. A trailing slash is tolerated (`/jamendo/` serves `/jamendo`). */
export function lookup(web: WebModel, url: string): Lookup {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'unknown-host' };
  }
  const site = web.byHost.get(parsed.hostname.toLowerCase());
  if (!site) return { kind: 'unknown-host' };
  const path = `${parsed.pathname}${parsed.search}`;
  let id = site.byPath.get(path);
  if (id === undefined && parsed.pathname.length > 1 && parsed.pathname.endsWith('/')) {
    id = site.byPath.get(`${parsed.pathname.slice(0, -1)}${parsed.search}`);
  }
  if (id !== undefined) return { kind: 'doc', site, doc: site.docs[id] as SimDoc };
  const month = calendarMonth(site, parsed);
  if (month !== undefined) return { kind: 'calendar', site, month };
  return { kind: 'missing', site };
}

/** Month index (0 = the first) of a calendar URL, if the site has a calendar and the month is well-formed. */
function calendarMonth(site: SiteModel, url: URL): number | undefined {
  const cal = site.calendar;
  if (!cal || url.pathname !== cal.path) return undefined;
  const m = /^\?month=(\d{4})-(\d{2})$/.exec(url.search);
  if (!m) return undefined;
  const first = Number(cal.firstMonth.slice(0, 4));
  const index = (Number(m[1]) - first) * 12 + Number(m[2]) - 1;
  return Number(m[2]) >= 1 && Number(m[2]) <= 12 && index >= 0 ? index : undefined;
}

/** URL of calendar month `m` of a site. */
function calendarUrl(site: SiteModel, m: number): string {
  const cal = site.calendar as NonNullable<SiteModel['calendar']>;
  return `http://${site.host}${cal.path}?month=${monthName(Number(cal.firstMonth.slice(0, 4)), m)}`;
}

/** External link URLs of a page (hosts outside the web, not served), deterministic from the site seed. */
export function externalLinks(site: SiteModel, doc: SimDoc): string[] {
  const out: string[] = [];
  for (let i = 0; i < doc.external; i++) {
    const h = hashParts(site.seed, 'ext', doc.dupOf ?? doc.id, i);
    out.push(`http://www.partner${h % 4000}-sim.${['org', 'com', 'net', 'ru'][h % 4]}/page/${doc.dupOf ?? doc.id}-${i}`);
  }
  return out;
}

/**
 * Links of a URL as served, absolute: internal HTML links (page order, without repeats), then external links.
 * Redirects give their target(s) — for content negotiation both variants. Unknown URLs give [].
 */
export function linksOf(web: WebModel, url: string): string[] {
  const found = lookup(web, url);
  if (found.kind === 'calendar') return calendarLinks(found.site, found.month);
  if (found.kind !== 'doc') return [];
  const { site, doc } = found;
  if (site.calendar && doc.kind === 'html' && doc.path.startsWith(`${site.calendar.path}?`)) {
    const m = calendarMonth(site, new URL(docUrl(site, doc)));
    if (m !== undefined) return calendarLinks(site, m);
  }
  const ids: number[] = [];
  if (doc.kind === 'html' && doc.status === 200) ids.push(...doc.links.map(linkTarget));
  if (doc.kind === 'redirect' || doc.kind === 'conneg') ids.push(...[doc.target, doc.htmlTarget].filter((t): t is number => t !== undefined));
  const internal = [...new Set(ids)].map((t) => docUrl(site, site.docs[t] as SimDoc));
  return doc.kind === 'html' && doc.status === 200 ? [...internal, ...externalLinks(site, doc)] : internal;
}

/** Links of calendar month m: previous month (if any), home, next month (always: the trap). */
export function calendarLinks(site: SiteModel, m: number): string[] {
  return [...(m > 0 ? [calendarUrl(site, m - 1)] : []), site.startUrl, calendarUrl(site, m + 1)];
}

/** The truth record of one document. */
export function truthOf(site: SiteModel, doc: SimDoc): TruthRecord {
  const rec: TruthRecord = {
    url: docUrl(site, doc),
    host: site.host,
    pld: site.pld,
    label: doc.label,
    depth: doc.depth,
    status: doc.status,
    contentType: doc.contentType,
  };
  if (doc.target !== undefined) rec.redirectTo = docUrl(site, site.docs[doc.target] as SimDoc);
  if (doc.htmlTarget !== undefined) rec.redirectToHtml = docUrl(site, site.docs[doc.htmlTarget] as SimDoc);
  if (doc.kind === 'rdf' && doc.triples !== undefined) rec.triples = doc.triples;
  if (doc.kind === 'rdf' && doc.format) rec.format = doc.format;
  if (doc.embed) {
    rec.embedded = doc.embed;
    if (doc.triples !== undefined) rec.triples = doc.triples;
  }
  if (site.robots.disallow.some((d) => doc.path.startsWith(d))) rec.disallowed = true;
  if (doc.dupOf !== undefined) rec.duplicateOf = docUrl(site, site.docs[doc.dupOf] as SimDoc);
  if (doc.external > 0) rec.externalLinks = doc.external;
  if (site.calendar && doc.path.startsWith(`${site.calendar.path}?`)) rec.trap = true;
  if (doc.slow) rec.slow = true;
  return rec;
}

/** The truth record of a calendar month beyond the materialised ones (depth counted along the chain). */
export function calendarTruth(site: SiteModel, m: number): TruthRecord {
  const cal = site.calendar as NonNullable<SiteModel['calendar']>;
  const first = site.byPath.get(`${cal.path}?month=${cal.firstMonth}`);
  const firstDepth = first === undefined ? -1 : (site.docs[first]?.depth ?? -1);
  return {
    url: calendarUrl(site, m),
    host: site.host,
    pld: site.pld,
    label: 'H',
    depth: firstDepth < 0 ? -1 : firstDepth + m,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    trap: true,
  };
}
