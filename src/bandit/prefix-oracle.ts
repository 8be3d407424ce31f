// The best reward a budget can buy when every site is crawled in its own fixed order (BeeBot §3: X(i, j) in BFS order).
//
// A scheduler over PLDs only decides how many fetches each site gets; within a site the order is fixed, so a site
// given t fetches yields the sum of its first t rewards. The oracle is the best split of the budget over the sites:
// a knapsack over prefixes, solved exactly by dynamic programming in O(sites × budget × longest useful prefix).

/** The best total reward of `budget` fetches split over sites whose rewards come in the given orders. */
export function prefixOracle(sequences: readonly (readonly number[])[], budget: number): number {
  const B = Math.max(0, Math.floor(budget));
  let best = new Float64Array(B + 1);
  for (const seq of sequences) {
    const len = Math.min(seq.length, B);
    const prefix = new Float64Array(len + 1);
    for (let t = 0; t < len; t++) prefix[t + 1] = prefix[t]! + seq[t]!;
    // Only prefixes that end on a reward can beat a shorter one: skip the others to keep the inner loop short.
    const useful: number[] = [];
    for (let t = 1; t <= len; t++) if (seq[t - 1]! > 0) useful.push(t);
    const next = best.slice();
    for (let b = 1; b <= B; b++) {
      let v = next[b]!;
      for (const t of useful) {
        if (t > b) break;
        const c = best[b - t]! + prefix[t]!;
        if (c > v) v = c;
      }
      next[b] = v;
    }
    // Spending less than the budget is allowed: best[b] is non-decreasing in b.
    for (let b = 1; b <= B; b++) if (next[b - 1]! > next[b]!) next[b] = next[b - 1]!;
    best = next;
  }
  return best[B]!;
}
