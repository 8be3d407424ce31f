// **ShardStores**: the quadstores of one or several shards read as one dataset: each document once, the default graph a set.
import type { Quad, Quad_Graph, Quad_Object, Quad_Predicate, Quad_Subject } from '@rdfjs/types';
import { type AsyncIterator, TransformIterator } from 'asynciterator';
import type { ShardSet } from '../crawl-log/shard-merge.ts';
import { pullIterator } from '../state/pull-iterator.ts';
import { SeenTriples } from './seen-triples.ts';
import { TripleProbe } from './triple-probe.ts';
import { type TermName, unionDedupe } from './union-dedupe.ts';

/** An iterator to stop when the query is closed early. */
export type Trackable = { destroy(): void; done: boolean; once(event: string, fn: () => void): unknown };

/**
 * Store-level reads over the shards of a {@link ShardSet} (one crawl folder: one shard). A document (named graph)
 * stored in several shards is read from the shard that wins it (`plan.excluded` names the others' copies).
 * With one shard and nothing excluded, every read is the quadstore's own.
 */
export class ShardStores {
  readonly #set: ShardSet;
  readonly #track: (it: Trackable) => void;
  readonly #seen: () => SeenTriples;

  /**
   * `track` is told of every store iterator handed out (GuardedSource destroys them when a query is closed).
   * `seen`: the memory of each cross-shard merge (default: SeenTriples' own sizes; tests shrink it).
   */
  constructor(set: ShardSet, track: (it: Trackable) => void, seen: () => SeenTriples = () => new SeenTriples()) {
    this.#set = set;
    this.#track = track;
    this.#seen = seen;
  }

  get #plain(): boolean {
    return this.#set.states.length === 1 && (this.#set.plan.excluded[0]?.size ?? 0) === 0;
  }

  /** Whether shard `i` leaves the quad's graph to another shard. */
  #excluded(i: number, q: Quad): boolean {
    return q.graph.termType === 'NamedNode' && (this.#set.plan.excluded[i]?.has(q.graph.value) ?? false);
  }

  /** The stored quads matching the pattern (`graph` undefined: any graph), each document from its winning shard. */
  match(subject?: Quad_Subject, predicate?: Quad_Predicate, object?: Quad_Object, graph?: Quad_Graph): AsyncIterator<Quad> {
    const { states } = this.#set;
    if (this.#plain) {
      const it = (states[0] as ShardSet['states'][number]).quadstore.match(subject, predicate, object, graph);
      this.#track(it);
      return it;
    }
    const parts = states.map((state, i) => {
      if (graph?.termType === 'NamedNode' && this.#set.plan.excluded[i]?.has(graph.value)) return null;
      const it = state.quadstore.match(subject, predicate, object, graph);
      this.#track(it);
      return it.filter((q) => !this.#excluded(i, q));
    });
    return this.#concat(parts.filter((p) => p !== null));
  }

  /**
   * The default graph's quads: the triples of the graphs `wanted` keeps, each once (SPARQL 1.1 §13.1). The shards are
   * read one after another, streamed. Within a shard repeats are dropped in index order (union-dedupe.ts, O(run)
   * memory). Across shards, the triples let through are remembered in bounded memory (seen-triples.ts): one never
   * seen is new; one seen for sure is a repeat; a possible repeat is looked up by a seek into each earlier shard's
   * SPOG index (triple-probe.ts). Quads keep their stored graph (the caller moves them into the default graph).
   */
  merged(subject: Quad_Subject | undefined, predicate: Quad_Predicate | undefined, object: Quad_Object | undefined, wanted: (q: Quad) => boolean): AsyncIterator<Quad> {
    const parts = this.#set.states.map((state, i) => {
      const pending = state.quadstore.getStream({ subject, predicate, object }, {}).then(({ iterator, order }) => {
        this.#track(iterator);
        const fresh = unionDedupe(order as TermName[]);
        return iterator.filter((q) => wanted(q) && !this.#excluded(i, q) && fresh(q));
      });
      // Not asynciterator's wrap(promise): its WrappingIterator can lose a readable event (CoveringQuadstore.match).
      const it = new TransformIterator<Quad>(pending, { autoStart: false });
      this.#track(it);
      return it;
    });
    if (parts.length === 1) return parts[0] as AsyncIterator<Quad>;
    const states = this.#set.states;
    const excluded = (i: number, q: Quad): boolean => this.#excluded(i, q);
    const seen = this.#seen();
    const merge = async function* (): AsyncGenerator<Quad> {
      const probes: Array<{ probe: TripleProbe; accept: (q: Quad) => boolean }> = [];
      try {
        for (const [i, part] of parts.entries()) {
          for await (const q of part as unknown as AsyncIterable<Quad>) {
            if (i > 0) {
              const known = seen.has(q);
              if (known === 'yes') continue;
              if (known === 'maybe' && (await heldBy(probes, q))) continue;
            }
            seen.add(q);
            yield q;
          }
          // Later shards look their possible repeats up in this one, in the graphs the merge took from it.
          probes.push({ probe: new TripleProbe(states[i] as ShardSet['states'][number]), accept: (q) => wanted(q) && !excluded(i, q) });
        }
      } finally {
        for (const { probe } of probes) await probe.close();
      }
    };
    const it = pullIterator(merge());
    this.#track(it);
    return it;
  }

  /** An upper bound of the matching stored quads (quadstore's approximate counts, summed over shards). */
  async count(subject?: Quad_Subject, predicate?: Quad_Predicate, object?: Quad_Object, graph?: Quad_Graph): Promise<number> {
    let sum = 0;
    for (const state of this.#set.states) sum += await state.quadstore.countQuads(subject, predicate, object, graph);
    return sum;
  }

  /** The parts one after another. */
  #concat(parts: Array<AsyncIterator<Quad>>): AsyncIterator<Quad> {
    const it = pullIterator(
      (async function* () {
        for (const part of parts) yield* part as unknown as AsyncIterable<Quad>;
      })(),
    );
    this.#track(it);
    return it;
  }
}

/** Whether one of the (earlier) shards holds the quad's triple in a graph the merge takes. */
async function heldBy(probes: ReadonlyArray<{ probe: TripleProbe; accept: (q: Quad) => boolean }>, q: Quad): Promise<boolean> {
  for (const { probe, accept } of probes) if (await probe.holds(q, accept)) return true;
  return false;
}
