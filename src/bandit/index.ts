// The public face of the PLD scheduler: bandit policies over PLDs (BeeBot §3), their factory and a replay simulator.

export { createPolicy, POLICY_NAMES, type PolicyName, type PolicyOptions, resolvePolicyOptions } from './create-policy.ts';
export { AutoPolicy } from './policies/auto.ts';
export { DiscountedUcbPolicy } from './policies/ducb.ts';
export { R1Policy } from './policies/r1.ts';
export { R2Policy } from './policies/r2.ts';
export { R3Policy } from './policies/r3.ts';
export { RoundRobinPolicy } from './policies/round-robin.ts';
export { SlidingWindowUcbPolicy } from './policies/swucb.ts';
export { ThompsonPolicy } from './policies/thompson.ts';
export { type ArmRecord, joinSnapshot, type PolicyChanges, type PolicySnapshot, type SavedArm } from './policy-base.ts';
export { Prng } from '../random/prng.ts';
export { sampleGamma, sampleNormal, samplePoisson } from '../random/samplers.ts';
export { type ReplayArm, type SimulateOptions, type SimulateResult, simulate } from './simulate.ts';
export type { ArmStats, BanditPolicy } from './types.ts';
