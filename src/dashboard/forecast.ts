// **predictStop** tells what will end a crawl and when: its fetch budget at the current pace, or its frontier
// running dry if queued URLs shrink faster (from the queued-vs-crawled samples). Pure.

/** What will stop the crawl, and in how many seconds (null when it cannot be told yet). */
export interface StopForecast {
  by: 'budget' | 'frontier' | 'unknown';
  etaSeconds: number | null;
  /** Fetches left in the budget. */
  budgetLeft: number;
}

export interface ForecastInput {
  /** Budget spent so far (fetches but robots refusals). */
  spent: number;
  maxDocs: number;
  /** Pages per second. */
  rate: number;
  /** Samples of queued and crawled over time (oldest first). */
  series: ReadonlyArray<{ t: number; queued: number; crawled: number }>;
}

/** Looks at the last `window` samples: if queued falls, the frontier empties at that slope; the budget at `rate`. */
export function predictStop(input: ForecastInput, window = 30): StopForecast {
  const budgetLeft = Number.isFinite(input.maxDocs) ? Math.max(0, input.maxDocs - input.spent) : Number.POSITIVE_INFINITY;
  const budgetEta = input.rate > 0 && Number.isFinite(budgetLeft) ? budgetLeft / input.rate : null;
  let frontierEta: number | null = null;
  const recent = input.series.slice(-window);
  const first = recent[0];
  const last = recent[recent.length - 1];
  if (first && last && last.t > first.t) {
    const slope = (last.queued - first.queued) / ((last.t - first.t) / 1000); // queued per second
    if (slope < 0) frontierEta = last.queued / -slope;
  }
  const shown = Number.isFinite(budgetLeft) ? budgetLeft : -1;
  if (frontierEta !== null && (budgetEta === null || frontierEta < budgetEta)) return { by: 'frontier', etaSeconds: frontierEta, budgetLeft: shown };
  if (budgetEta !== null) return { by: 'budget', etaSeconds: budgetEta, budgetLeft: shown };
  return { by: 'unknown', etaSeconds: null, budgetLeft: shown };
}
