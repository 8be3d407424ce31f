// The public face of the PLD scheduler: bandit policies over PLDs (BeeBot §3), their factory and a replay simulator.

export { createPolicy, POLICY_NAMES } from './create-policy.ts';
export { joinSnapshot } from './policy-base.ts';
export type { BanditPolicy } from './types.ts';
