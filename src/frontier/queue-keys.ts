// **queue keys**: `frontier` sublevel keys whose LevelDB (byte) order is each PLD's queue order, (priority, seq).

/** Prefix of every queued entry's key: `q!<pld>!<priority 16 hex>!<seq 16 digits>`. */
export const QUEUE_PREFIX = 'q!';

/** Sorts after every queue key (`"` is the character after `!`). */
export const QUEUE_END = 'q"';

const view = new DataView(new ArrayBuffer(8));

/**
 * A priority as 16 hex digits whose string order is the numeric order of any double (IEEE-754 bits with the sign
 * bit flipped for positives and all bits flipped for negatives, the classic sortable-float trick).
 */
function encodePriority(priority: number): string {
  view.setFloat64(0, priority === 0 ? 0 : priority); // -0 sorts as 0
  let hi = view.getUint32(0);
  let lo = view.getUint32(4);
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else {
    hi = (hi | 0x80000000) >>> 0;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** The order of an entry within its PLD: `<priority 16 hex>!<seq 16 digits>` (fixed width, so string order works). */
export function sortKeyOf(priority: number, seq: number): string {
  return `${encodePriority(priority)}!${String(seq).padStart(16, '0')}`;
}

/** Sorts after every sort key. */
export const SORT_KEY_MAX = '~';

export function queueKey(pld: string, sortKey: string): string {
  return `${QUEUE_PREFIX}${pld}!${sortKey}`;
}

/** First and past-the-end keys of a PLD's queue (`"` is the character after `!`). */
export function pldRange(pld: string): { gte: string; lt: string } {
  return { gte: `${QUEUE_PREFIX}${pld}!`, lt: `${QUEUE_PREFIX}${pld}"` };
}

