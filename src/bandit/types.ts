// Types of the PLD scheduler: a multi-armed bandit whose arms are PLDs (BeeBot §3).

/** Per-arm statistics, shown by `rdfscout stats`. */
export interface ArmStats {
  arm: string;
  pulls: number;
  totalReward: number;
  meanReward: number;
  /** The policy's current index for the arm (UCB bound, sampled mean, …); NaN when not defined. */
  index: number;
  /** The arm has left the game (`retire`); it comes back if it reappears among the candidates. */
  retired?: boolean;
}

/**
 * A bandit policy. Pure decision code: no clock, no I/O; randomness comes from an injected seeded generator.
 * `choose()` sees only the arms that may be pulled now (awake: politeness allows it; with work left), so a
 * policy never overrides politeness. Arms unknown to the policy may appear in `candidates` at any time.
 */
export interface BanditPolicy {
  readonly name: string;
  choose(candidates: readonly string[]): string;
  update(arm: string, reward: number): void;
  /** The arm has nothing left (or its site is Not Available): it leaves the game. */
  retire(arm: string): void;
  stats(): ArmStats[];
  /** The whole state, JSON-safe. */
  snapshot(): unknown;
  /**
   * What changed since the previous call: a small `head` and the arms touched (each with its name in `arm`).
   * `joinSnapshot(head, every arm saved so far)` gives what `restore` takes.
   */
  changes(): { head: unknown; arms: ReadonlyArray<{ arm: string }> };
  restore(state: unknown): void;
}
