// The crawl strategies by name (`--strategy`, thesis §10 Table 4-2).
import { ArgumentError } from '../errors.ts';
import type { Strategy } from '../relevance/types.ts';
import { BfsStrategy } from './bfs.ts';
import type { StrategyOptions } from './common.ts';
import { FcRStrategy } from './fc-r.ts';
import { FcRHrStrategy } from './fc-r-hr.ts';
import { FcRHr2Strategy } from './fc-r-hr2.ts';
import { FcR2Strategy } from './fc-r2.ts';
import { TopicalStrategy } from './topical.ts';
import { TopicalHrStrategy } from './topical-hr.ts';
import { YieldStrategy } from './yield.ts';

/** Strategy names: BC, the proposed FC-R+HR, the three other compared crawlers, the topical agent alone and as a tie-breaker, and the learned link yield. */
export const STRATEGY_NAMES = ['bfs', 'fc-r+hr', 'fc-r', 'fc-r2', 'fc-r+hr2', 'topical', 'topical+hr', 'yield'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** The default strategy: the thesis's proposed crawler. */
export const DEFAULT_STRATEGY: StrategyName = 'fc-r+hr';

/** Whether a string names a strategy. */
export function isStrategyName(name: string): name is StrategyName {
  return (STRATEGY_NAMES as readonly string[]).includes(name);
}

/** Creates a fresh strategy (nothing learned) by name; throws `ArgumentError` for an unknown name. */
export function createStrategy(name: string, options?: StrategyOptions): Strategy {
  switch (name) {
    case 'bfs':
      return new BfsStrategy(options);
    case 'fc-r+hr':
      return new FcRHrStrategy(options);
    case 'fc-r':
      return new FcRStrategy(options);
    case 'fc-r2':
      return new FcR2Strategy(options);
    case 'fc-r+hr2':
      return new FcRHr2Strategy(options);
    case 'topical':
      return new TopicalStrategy(options);
    case 'topical+hr':
      return new TopicalHrStrategy(options);
    case 'yield':
      return new YieldStrategy(options);
    default:
      throw new ArgumentError(`Unknown strategy "${name}". Choose one of: ${STRATEGY_NAMES.join(', ')}.`);
  }
}

export { TopicalStrategy, TopicalHrStrategy };
export { YIELD_PRIORITY_TOP, YIELD_RULE_PREFIX } from './yield.ts';
export { TOPICAL_HR_TIE_SPAN } from './topical-hr.ts';
export type { StrategyOptions };
