// **mulberry32**: the one small seeded generator step behind {@link Prng} (bandit policies, simulated web, benches).

/**
 * One step of mulberry32 (Tommy Ettinger's 32-bit generator): from a state, the next state and a float in [0, 1).
 * Pure; callers keep the state (so it can be persisted and restored exactly).
 */
export function mulberry32(state: number): { state: number; value: number } {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { state: next, value: ((t ^ (t >>> 14)) >>> 0) / 4294967296 };
}
