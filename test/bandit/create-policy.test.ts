// createPolicy: names, options, errors.

import { describe, expect, it } from 'vitest';
import { createPolicy, POLICY_NAMES, resolvePolicyOptions } from '../../src/bandit/create-policy.ts';
import { RdfscoutError } from '../../src/errors.ts';

describe('createPolicy', () => {
  it('builds every listed policy under its own name', () => {
    for (const name of POLICY_NAMES) expect(createPolicy(name).name).toBe(name);
  });

  it('rejects an unknown name with RDFSCOUT_INVALID_ARGUMENT, listing the valid names', () => {
    let err: unknown;
    try {
      createPolicy('gittins');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RdfscoutError);
    expect((err as RdfscoutError).code).toBe('RDFSCOUT_INVALID_ARGUMENT');
    for (const name of POLICY_NAMES) expect((err as Error).message).toContain(name);
  });

  it('rejects unknown option keys and out-of-range values', () => {
    expect(() => createPolicy('r2', { stpe: 3 } as never)).toThrowError(/Unknown bandit option "stpe".*step/);
    expect(() => createPolicy('r2', { step: 0 })).toThrowError(/step must be an integer ≥ 1/);
    expect(() => createPolicy('ducb', { gamma: 1.5 })).toThrowError(/gamma must be a number in \(0, 1\]/);
    expect(() => createPolicy('thompson', { seed: 1.5 })).toThrowError(RdfscoutError);
  });

  it('fills in documented defaults and freezes them', () => {
    const o = resolvePolicyOptions({ step: 4 });
    expect(o).toMatchObject({ step: 4, quantum: 1, budget: 2000, initialStep: 1, gamma: 0.995, window: 500, seed: 1 });
    expect(Object.isFrozen(o)).toBe(true);
  });
});
