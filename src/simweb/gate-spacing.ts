// **checkGateSpacing** joins a crawler's politeness-gate passes to the server's request log: how far apart requests to one PLD left, and the jitter after the gate (pure).
import type { LoggedRequest } from './politeness-check.ts';

/** One pass of the send gate, as a crawl's `gatePassed` probe reports it (src/crawl/probes.ts). */
export interface GatePass {
  url: string;
  pld: string;
  /** The gate's time, epoch ms (whole ms: Redis's clock or `Date.now`). */
  at: number;
}

/** The spacing of one PLD's gated requests. */
interface PldGateSpacing {
  pld: string;
  /** Gate passes, and requests the server saw that a pass let through (same URL, pass at or before the start). */
  passes: number;
  gatedRequests: number;
  /** Smallest time between two successive passes (the guarantee: ≥ --delay-ms); undefined with fewer than two. */
  minGateGapMs?: number;
  /** Largest time from a pass to the server's start of its request (the jitter the gate cannot remove). */
  maxJitterMs?: number;
  /**
   * Smallest (server start of the next gated request − start of this one) + this one's jitter, over gated requests
   * in the order of their passes: ≥ --delay-ms when the gate kept them apart (the next pass came ≥ delay after this
   * one's, and no request reaches the server before its pass). So the server sees two requests of one PLD start at
   * least --delay-ms − (the first one's jitter) apart. Undefined with fewer than two gated requests.
   */
  minGapPlusJitterMs?: number;
}

/** The worst PLD of each figure, and every PLD. */
export interface GateSpacingReport {
  passes: number;
  gatedRequests: number;
  minGateGapMs?: number;
  maxJitterMs?: number;
  minGapPlusJitterMs?: number;
  byPld: PldGateSpacing[];
}

/**
 * Joins each gate pass to the request it let through: the first request of its URL that the server started at
 * or after the pass (less `clockSlackMs`: the pass is stamped in whole ms of another clock than the server's
 * sub-ms one). Passes that let nothing through (a fetch whose robots.txt another fetch had started meanwhile
 * passes again later) count as passes only.
 */
export function checkGateSpacing(log: readonly LoggedRequest[], passes: readonly GatePass[], clockSlackMs = 1): GateSpacingReport {
  const requestsByUrl = new Map<string, LoggedRequest[]>();
  for (const r of [...log].sort((a, b) => a.start - b.start)) {
    const list = requestsByUrl.get(r.url);
    if (list) list.push(r);
    else requestsByUrl.set(r.url, [r]);
  }
  const byPld = new Map<string, { passes: number[]; gated: Array<{ at: number; start: number }> }>();
  const taken = new Set<LoggedRequest>();
  for (const p of [...passes].sort((a, b) => a.at - b.at)) {
    const pld = byPld.get(p.pld) ?? { passes: [], gated: [] };
    byPld.set(p.pld, pld);
    pld.passes.push(p.at);
    const r = requestsByUrl.get(p.url)?.find((q) => !taken.has(q) && q.start >= p.at - clockSlackMs);
    if (r === undefined) continue;
    taken.add(r);
    pld.gated.push({ at: p.at, start: r.start });
  }
  const report: GateSpacingReport = { passes: passes.length, gatedRequests: 0, byPld: [] };
  for (const [pld, { passes: at, gated }] of byPld) {
    const s: PldGateSpacing = { pld, passes: at.length, gatedRequests: gated.length };
    for (let i = 1; i < at.length; i++) s.minGateGapMs = Math.min(s.minGateGapMs ?? Number.POSITIVE_INFINITY, (at[i] as number) - (at[i - 1] as number));
    for (const g of gated) s.maxJitterMs = Math.max(s.maxJitterMs ?? 0, g.start - g.at);
    for (let i = 1; i < gated.length; i++) {
      const prev = gated[i - 1] as { at: number; start: number };
      const gap = (gated[i] as { start: number }).start - prev.start + (prev.start - prev.at);
      s.minGapPlusJitterMs = Math.min(s.minGapPlusJitterMs ?? Number.POSITIVE_INFINITY, gap);
    }
    report.byPld.push(s);
    report.gatedRequests += s.gatedRequests;
    report.minGateGapMs = minOf(report.minGateGapMs, s.minGateGapMs);
    report.minGapPlusJitterMs = minOf(report.minGapPlusJitterMs, s.minGapPlusJitterMs);
    if (s.maxJitterMs !== undefined) report.maxJitterMs = Math.max(report.maxJitterMs ?? 0, s.maxJitterMs);
  }
  return report;
}

function minOf(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.min(a, b);
}
