// The crawl strategies by name (`--strategy`, thesis §10 Table 4-2).
import { ArgumentError } from '../../errors.ts';
import type { Strategy } from '../types.ts';
import { BfsStrategy } from './bfs.ts';
import type { StrategyOptions } from './common.ts';
import { FcRStrategy } from './fc-r.ts';
import { FcRHrStrategy } from './fc-r-hr.ts';
import { FcRHr2Strategy } from './fc-r-hr2.ts';
import { FcR2Strategy } from './fc-r2.ts';

/** Strategy names: BC, the proposed FC-R+HR, and the three other compared crawlers. */
export const STRATEGY_NAMES = ['bfs', 'fc-r+hr', 'fc-r', 'fc-r2', 'fc-r+hr2'] as const;
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
    default:
      throw new ArgumentError(`Unknown strategy "${name}". Choose one of: ${STRATEGY_NAMES.join(', ')}.`);
  }
}

export { BfsStrategy, FcRStrategy, FcRHrStrategy, FcRHr2Strategy, FcR2Strategy };
export type { StrategyOptions };
export { HAT10_RULE } from './fc-r-hr2.ts';
export { UMB09_THRESHOLD } from './fc-r2.ts';
export { PREFERRED_RDF_PREDICATES, PRIORITY, NF_RULE, RDF_LINK_OTHER_PRIORITY } from './common.ts';
