// Doorbell: a ring wakes the current wait; a ring with nobody waiting is kept for the next wait (never lost).
import { describe, expect, it } from 'vitest';
import { Doorbell } from '../../src/crawl/doorbell.ts';

async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

describe('Doorbell', () => {
  it('wakes every waiter of the current wait, keeps a ring nobody heard, and does not wake twice for one ring', async () => {
    const bell = new Doorbell();
    const a = bell.next();
    const b = bell.next();
    expect(a).toBe(b); // one promise per wait, however many wait
    expect(await settled(a)).toBe(false);
    bell.ring();
    expect(await settled(a)).toBe(true);
    const c = bell.next();
    expect(await settled(c)).toBe(false); // that ring was heard: the next wait waits
    bell.ring(); // heard by c
    expect(await settled(c)).toBe(true);
    bell.ring(); // nobody waits: kept
    expect(await settled(bell.next())).toBe(true);
    expect(await settled(bell.next())).toBe(false);
  });
});
