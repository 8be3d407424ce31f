// **Samplers**: normal, Gamma and Poisson draws from a seeded {@link Prng} (for Thompson sampling and the bandit simulator).
import type { Prng } from './prng.ts';

/** A standard normal draw (Box–Muller; uses two uniforms). */
function sampleNormal(prng: Prng): number {
  const u = 1 - prng.next(); // (0, 1]
  const v = prng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * A Gamma(shape, rate) draw: Marsaglia & Tsang (2000) for shape ≥ 1, boosted by U^(1/shape) for shape < 1.
 * Mean shape/rate.
 */
export function sampleGamma(prng: Prng, shape: number, rate = 1): number {
  if (!(shape > 0) || !(rate > 0)) throw new RangeError(`sampleGamma needs shape > 0 and rate > 0 (got ${shape}, ${rate})`);
  if (shape < 1) {
    const u = 1 - prng.next();
    return sampleGamma(prng, shape + 1, rate) * u ** (1 / shape);
  }
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = sampleNormal(prng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - prng.next();
    if (u < 1 - 0.0331 * x * x * x * x) return (d * v) / rate;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return (d * v) / rate;
  }
}

/** A Poisson(mean) draw (Knuth for small means, a rounded normal approximation above 50). */
export function samplePoisson(prng: Prng, mean: number): number {
  if (mean <= 0) return 0;
  if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * sampleNormal(prng)));
  const limit = Math.exp(-mean);
  let k = 0;
  let p = prng.next();
  while (p > limit) {
    k++;
    p *= prng.next();
  }
  return k;
}
