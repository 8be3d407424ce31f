// solid-like: a Solid community pod server with dokieli-style researchers among its users (held out).
//
// Written blind (from general knowledge of Solid servers and dokieli, without reading the other held-out
// profiles or any strategy), and committed before any strategy other than bfs and the oracle was run on it. Path-based
// pods on one host (`/<user>/`, as the Community Solid Server lays them out), found through a paginated public
// directory and through `foaf:knows` links between people:
// - every user's WebID profile `/<user>/profile/card` (Turtle, `#me`): served directly as `text/turtle` without an
//   extension, or, for researchers who publish with dokieli, only by content negotiation (303 to `card.ttl`, or to
//   `card.html` with RDFa when HTML is preferred);
// - LDP containers (`/<user>/`, `public/`, `public/notes/`, …): the simulator serves one body per URL, so a container
//   answers with its HTML view (the listing a browser gets) that lists its resources and announces the container's
//   Turtle listing (`index.ttl`, `ldp:contains`) by `<link rel=alternate type=text/turtle>` only;
// - resources in Turtle (some without an extension), JSON-LD (some served as `application/json`), images, CSV, text;
// - `.acl` files (Turtle, most answering 401: reading an ACL needs control access) and some `.meta` resources, shown as
//   `ACL`/`META` badges; private containers (`private/`, `settings/`, some whole pods, some inboxes) answer 401;
// - researchers' dokieli articles: resource URIs that answer 303 to Turtle or to HTML with RDFa; the HTML links the
//   author, annotations (Turtle / JSON-LD, or by content negotiation only), the pod's inbox and cited articles;
// - inboxes of notifications (JSON-LD as `application/ld+json`, or Turtle without extension);
// - `foaf:knows` to people on other pod providers are links out of the web (dead: the simulator serves no such host).
// The simulator serves no links inside RDF bodies, so `ldp:contains` and `foaf:knows` are followed through the HTML
// views only; what a crawler reads inside the Turtle listings leads nowhere here.
import type { Prng } from '../../random/prng.ts';
import type { SiteBuilder } from '../site-graph.ts';
import { LinkStyle, type RdfFormat, type SimDoc, type Vocab } from '../types.ts';
import { addNoise } from './noise.ts';
import type { Profile } from './profile.ts';
import { FIRST, LAST, TOPICS, WORDS } from './words.ts';

type PodKind = 'personal' | 'researcher' | 'private';
const CONTAINERS = ['notes', 'bookmarks', 'photos', 'data', 'recipes', 'music'] as const;
type Container = (typeof CONTAINERS)[number];
const DOCS = ['getting-started', 'your-webid', 'sharing-and-acl', 'apps', 'developers', 'privacy', 'terms'];
const PER_DIRECTORY_PAGE = 25;

interface Pod {
  user: string;
  kind: PodKind;
  /** The WebID document's URI (the card, or its content-negotiated URI). */
  card: number;
  /** Where `foaf:knows` links are shown: the pod root's view, or the card's HTML view. */
  contacts: number;
  root: number;
  articles: number[];
  articleHtml: number[];
}

function buildSolid(b: SiteBuilder, rng: Prng, size: number): void {
  const root = b.html('/');
  const pages: number[] = [root];
  const page = (path: string, extra: Partial<SimDoc> = {}): number => {
    const id = b.html(path, extra);
    pages.push(id);
    return id;
  };
  const taken = new Set<string>();
  const uuid = (): string => {
    for (;;) {
      const u = Array.from({ length: 8 }, () => rng.int(0, 15).toString(16)).join('');
      if (!taken.has(u)) {
        taken.add(u);
        return u;
      }
    }
  };
  const turtle = (path: string, vocab: Vocab, lo: number, hi: number): number => b.rdf(path, 'turtle', vocab, rng.int(lo, hi));
  /** An auxiliary resource (`.acl`, `.meta`) shown as a badge: Turtle when readable, else 401. */
  const auxiliary = (from: number, path: string, readable: number): void => {
    b.link(from, rng.chance(readable) ? turtle(path, 'archive', 4, 14) : b.error(path, 401), LinkStyle.formatBadge);
  };
  /** A container's HTML view, its Turtle listing as `rel=alternate`, and its ACL. */
  const container = (path: string, parent: number, aclReadable: number): number => {
    const view = page(path);
    b.link(parent, view);
    b.link(view, parent);
    b.link(view, turtle(`${path}index.ttl`, 'archive', 4, 10), LinkStyle.altTurtle);
    auxiliary(view, `${path}.acl`, aclReadable);
    return view;
  };
  /** A content-negotiated resource: 303 to Turtle, or to HTML with RDFa when HTML is preferred. */
  const negotiated = (base: string, vocab: Vocab, lo: number, hi: number): { uri: number; html: number } => {
    const ttl = turtle(`${base}.ttl`, vocab, lo, hi);
    const html = page(`${base}.html`, { embed: 'rdfa', vocab: 'schema', triples: rng.int(3, 5) });
    return { uri: b.conneg(base, ttl, html), html };
  };

  const nPods = Math.max(4, Math.round(size / 35));
  const users = new Set<string>();
  const pods: Pod[] = [];
  for (let i = 0; i < nPods; i++) {
    let user = `${rng.pick(FIRST)}${rng.pick(LAST)}`;
    if (users.has(user)) user = `${user}${i}`;
    users.add(user);
    const r = rng.next();
    const kind: PodKind = r < 0.12 ? 'private' : r < 0.38 ? 'researcher' : 'personal';
    const base = `/${user}/`;
    let card: number;
    let cardHtml = -1;
    if (kind === 'researcher') {
      const neg = negotiated(`${base}profile/card`, 'foaf', 15, 70);
      card = neg.uri;
      cardHtml = neg.html;
    } else card = turtle(`${base}profile/card`, 'foaf', 10, 60);
    if (kind === 'private') {
      const podRoot = b.error(base, 401);
      pods.push({ user, kind, card, contacts: -1, root: podRoot, articles: [], articleHtml: [] });
      continue;
    }
    const podRoot = page(base);
    b.link(podRoot, card);
    b.link(podRoot, turtle(`${base}index.ttl`, 'archive', 4, 10), LinkStyle.altTurtle);
    auxiliary(podRoot, `${base}.acl`, 0.3);
    const pod: Pod = { user, kind, card, contacts: cardHtml >= 0 ? cardHtml : podRoot, root: podRoot, articles: [], articleHtml: [] };
    pods.push(pod);
    if (cardHtml >= 0) b.link(cardHtml, podRoot);

    // public/ and its containers of resources.
    const pub = container(`${base}public/`, podRoot, 0.45);
    if (rng.chance(0.3)) auxiliary(pub, `${base}public/.meta`, 1);
    const kinds = [...CONTAINERS].filter(() => rng.chance(0.45));
    if (kinds.length === 0) kinds.push(rng.pick(CONTAINERS));
    for (const c of kinds) {
      const path = `${base}public/${c}/`;
      const view = container(path, pub, 0.45);
      for (let k = 0, n = rng.pareto(2, 1.3, 20); k < n; k++) b.link(view, resource(b, rng, path, c, k));
    }
    // Inbox: always for researchers (dokieli sends notifications there), sometimes for others; readable or 401.
    if (kind === 'researcher' || rng.chance(0.3)) {
      if (rng.chance(0.5)) {
        const inbox = container(`${base}inbox/`, podRoot, 0.2);
        for (let k = 0, n = rng.pareto(1, 1.2, 15); k < n; k++) {
          const id = uuid();
          b.link(inbox, rng.chance(0.7) ? b.rdf(`${base}inbox/${id}.jsonld`, 'jsonld', 'schema', rng.int(6, 16)) : turtle(`${base}inbox/${id}`, 'schema', 6, 16));
        }
      } else b.link(podRoot, b.error(`${base}inbox/`, 401));
    }
    if (rng.chance(0.6)) b.link(podRoot, turtle(`${base}settings/publictypeindex.ttl`, 'archive', 4, 20), LinkStyle.formatBadge);
    b.link(podRoot, b.error(`${base}settings/`, 401));
    if (rng.chance(0.7)) b.link(podRoot, b.error(`${base}private/`, 401));

    if (kind === 'researcher') {
      const articles = container(`${base}articles/`, podRoot, 0.2);
      for (let k = 0, n = rng.int(1, 6); k < n; k++) {
        const art = negotiated(`${base}articles/${rng.pick(TOPICS).replace(/ /g, '-')}-${rng.pick(WORDS)}-${k + 1}`, 'archive', 30, 120);
        b.link(articles, art.uri);
        b.link(art.html, pod.card);
        b.link(art.html, articles);
        pod.articles.push(art.uri);
        pod.articleHtml.push(art.html);
        (b.docs[art.html] as SimDoc).external = rng.int(2, 8); // references
      }
    }
  }

  // Researchers' annotations on articles (their own or others'), and their articles' citations and inboxes.
  const researchers = pods.filter((p) => p.kind === 'researcher' && p.articles.length > 0);
  for (const p of researchers) {
    const base = `/${p.user}/`;
    const annotations = container(`${base}annotations/`, p.root, 0.2);
    for (let k = 0, n = rng.pareto(1, 1.2, 12); k < n; k++) {
      const target = rng.pick(researchers);
      const on = target.articleHtml[rng.int(0, target.articleHtml.length - 1)] as number;
      const path = `${base}annotations/${uuid()}`;
      let uri: number;
      if (rng.chance(0.4)) {
        const neg = negotiated(path, 'archive', 8, 20);
        uri = neg.uri;
        b.link(neg.html, target.articles[target.articleHtml.indexOf(on)] as number);
        b.link(neg.html, annotations);
      } else uri = rng.chance(0.5) ? turtle(`${path}.ttl`, 'archive', 8, 20) : b.rdf(`${path}.jsonld`, 'jsonld', 'archive', rng.int(8, 20), rng.chance(0.4) ? 'application/json' : undefined);
      b.link(annotations, uri);
      b.link(on, uri);
    }
    const inbox = b.byPath.get(`${base}inbox/`);
    for (const html of p.articleHtml) {
      if (inbox !== undefined) b.link(html, inbox);
      for (let c = rng.int(0, 2); c > 0; c--) {
        const cited = rng.pick(researchers);
        if (cited !== p) b.link(html, cited.articles[rng.int(0, cited.articles.length - 1)] as number);
      }
    }
  }

  // foaf:knows between people on this server (to their WebIDs), and to people on other providers (dead links out).
  for (const p of pods) {
    if (p.contacts < 0) continue;
    for (let k = rng.int(0, 6); k > 0; k--) {
      const other = rng.pick(pods);
      if (other !== p) b.link(p.contacts, other.card);
    }
    (b.docs[p.contacts] as SimDoc).external += rng.chance(0.4) ? rng.int(1, 2) : 0;
  }

  // The server's pages: home, a paginated public directory of pods, documentation.
  const directory: number[] = [];
  pods.forEach((p, i) => {
    if (i % PER_DIRECTORY_PAGE === 0) directory.push(page(i === 0 ? '/directory' : `/directory?page=${i / PER_DIRECTORY_PAGE + 1}`));
    const listing = directory[directory.length - 1] as number;
    b.link(listing, p.root);
    b.link(listing, p.card);
  });
  b.link(root, directory[0] as number);
  // Pagination: previous, the page numbers, next.
  directory.forEach((d, i) => {
    if (i > 0) b.link(d, directory[i - 1] as number, LinkStyle.prev);
    directory.forEach((other, j) => {
      if (Math.abs(i - j) > 1) b.link(d, other);
    });
    if (i + 1 < directory.length) b.link(d, directory[i + 1] as number, LinkStyle.next);
    b.link(d, root);
  });
  for (let i = 0; i < Math.min(5, pods.length); i++) {
    const p = rng.pick(pods);
    if (p.kind !== 'private') b.link(root, p.root);
  }
  const docs = page('/docs/');
  b.link(root, docs);
  for (const d of DOCS) {
    const p = page(`/docs/${d}`);
    b.link(docs, p);
    b.link(p, docs);
  }
  b.link(root, b.json('/.well-known/solid'));
  b.link(root, b.json('/.well-known/openid-configuration'));
  b.link(root, page('/idp/register/'));
  b.link(root, page('/about'));
  addNoise(b, rng, pages, { errorRate: 0.04, binaryRate: 0.02, duplicateRate: 0.005, disallowRate: 0.005 });
}

/** One resource in a pod's public container `c` (`path` ends with `/`). */
function resource(b: SiteBuilder, rng: Prng, path: string, c: Container, k: number): number {
  const name = `${rng.pick(WORDS)}-${k + 1}`;
  const rdf = (ext: string, format: RdfFormat, vocab: Vocab, contentType?: string): number => b.rdf(`${path}${name}${ext}`, format, vocab, rng.int(5, 40), contentType);
  switch (c) {
    case 'notes':
      // The server stores a resource under the name its client chose: often without an extension.
      return rng.chance(0.1) ? b.binary(`${path}${name}.txt`) : rdf(rng.chance(0.35) ? '' : '.ttl', 'turtle', 'schema');
    case 'bookmarks':
      return rdf(rng.chance(0.5) ? '' : '.ttl', 'turtle', 'archive');
    case 'photos':
      return rng.chance(0.85) ? b.binary(`${path}${name}.jpg`) : rdf('.ttl', 'turtle', 'archive');
    case 'data': {
      const r = rng.next();
      if (r < 0.45) return rdf('.jsonld', 'jsonld', 'schema', rng.chance(0.4) ? 'application/json' : undefined);
      return r < 0.75 ? b.binary(`${path}${name}.csv`) : rdf('.ttl', 'turtle', 'schema');
    }
    case 'recipes':
      return rdf(rng.chance(0.3) ? '' : '.ttl', 'turtle', 'schema');
    case 'music':
      return rng.chance(0.6) ? b.binary(`${path}${name}.mp3`) : rdf('.ttl', 'turtle', 'music');
  }
}

/** solid-like: path-based Solid pods, WebID cards, LDP container views, ACLs, dokieli articles and annotations (held out). */
export const solidProfile: Profile = {
  name: 'solid-like',
  description:
    'Solid community pod server: WebID cards (Turtle, #me; by content negotiation for dokieli users), LDP container views with Turtle listings as rel=alternate, .acl (mostly 401) and .meta, 401 private containers, dokieli articles with RDFa, annotations, inboxes, foaf:knows between pods',
  sites: [{ host: 'solidcommunity-sim.net', name: 'Solid Community (simulated)', shortName: 'solid', size: 4500, build: buildSolid }],
};
