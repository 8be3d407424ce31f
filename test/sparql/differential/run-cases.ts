// Runs generated cases: each query answered by rdfscout three ways and by the reference, over worlds of generated data.
import { type GeneratedQuery, generateQuery } from './generate-query.ts';
import { CASE_TIMEOUT_MS, compareAnswers, World } from './harness.ts';

/** One disagreement, with what reproduces it. */
export interface CaseFailure {
  seed: number;
  caseSeed: number;
  where: string;
  sparql: string;
  detail: string;
}

export interface RunOptions {
  /** Seed of the whole run (world i has seed `seed + i`, its case j has seed `(seed + i) * 1000 + j`). */
  seed: number;
  cases: number;
  /** Queries per generated crawl. Default: 25. */
  perWorld?: number;
  /** Told of each failure as it is found. */
  onFailure?: (f: CaseFailure) => void;
  /** Told after each case. */
  onCase?: (done: number) => void;
}

/** Runs the cases; resolves with every failure (empty: all agreed), and how many cases ran. */
export async function runCases(opts: RunOptions): Promise<{ failures: CaseFailure[]; ran: number }> {
  const perWorld = opts.perWorld ?? 25;
  const failures: CaseFailure[] = [];
  let ran = 0;
  for (let w = 0; ran < opts.cases; w++) {
    const seed = opts.seed + w;
    const world = await World.create(seed);
    const fail = (f: Omit<CaseFailure, 'seed'>): void => {
      const failure = { seed, ...f };
      failures.push(failure);
      opts.onFailure?.(failure);
    };
    try {
      const c = world.counts;
      if (!(c.export === c.sparql && c.sparql === c.stats)) fail({ caseSeed: -1, where: 'counts (one folder)', sparql: '', detail: JSON.stringify(c) });
      if (!(c.shardsExport === c.shardsSparql && c.shardsSparql === c.shardsStats)) fail({ caseSeed: -1, where: 'counts (two shards)', sparql: '', detail: JSON.stringify(c) });
      for (let j = 0; j < perWorld && ran < opts.cases; j++, ran++) {
        const caseSeed = seed * 1000 + j;
        const q: GeneratedQuery = generateQuery(caseSeed, world.data);
        const settle = async (where: Parameters<World['answer']>[0]) => {
          try {
            // Every engine answers under a deadline (rdfscout has its own time limit; the reference and HTTP get one here).
            let timer: NodeJS.Timeout | undefined;
            const late = new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`${where}: no answer within ${CASE_TIMEOUT_MS + 15_000} ms`)), CASE_TIMEOUT_MS + 15_000);
            });
            try {
              return { ok: true as const, answer: await Promise.race([world.answer(where, q), late]) };
            } finally {
              clearTimeout(timer);
            }
          } catch (err) {
            return { ok: false as const, error: (err as Error).message.split('\n')[0] ?? '' };
          }
        };
        const want = await settle('reference');
        const wantShards = await settle('reference-shards');
        for (const [where, ref] of [['one', want], ['http', want], ['shards', wantShards]] as const) {
          const got = await settle(where);
          let detail: string | null;
          if (!ref.ok) detail = got.ok ? `reference failed (${ref.error}), rdfscout answered` : null;
          else if (!got.ok) detail = `rdfscout failed: ${got.error}`;
          else detail = compareAnswers(got.answer, ref.answer);
          if (detail !== null) fail({ caseSeed, where, sparql: q.sparql, detail });
        }
        opts.onCase?.(ran + 1);
      }
    } finally {
      await world.close();
    }
  }
  return { failures, ran };
}
