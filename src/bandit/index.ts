// The public face of the PLD scheduler: bandit policies over PLDs (BeeBot §3), their factory and a replay simulator.

export type { ArmStats, BanditPolicy } from './types.ts';
export { createPolicy, POLICY_NAMES, resolvePolicyOptions, type PolicyName, type PolicyOptions } from './create-policy.ts';
export { simulate, type ReplayArm, type SimulateOptions, type SimulateResult } from './simulate.ts';
export { Prng, sampleGamma, sampleNormal, samplePoisson } from './prng.ts';
export type { ArmRecord, PolicySnapshot } from './policy-base.ts';
export { RoundRobinPolicy } from './policies/round-robin.ts';
export { R1Policy } from './policies/r1.ts';
export { R2Policy } from './policies/r2.ts';
export { R3Policy } from './policies/r3.ts';
export { ThompsonPolicy } from './policies/thompson.ts';
export { DiscountedUcbPolicy } from './policies/ducb.ts';
export { SlidingWindowUcbPolicy } from './policies/swucb.ts';
export { AutoPolicy } from './policies/auto.ts';
