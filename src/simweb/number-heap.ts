// **NumberHeap**: a binary min-heap of numbers, for the oracle curves' schedules (pure).

/** A binary min-heap of numbers (keys packed into one number by the caller). */
export class NumberHeap {
  #items: number[] = [];

  get size(): number {
    return this.#items.length;
  }

  push(x: number): void {
    const a = this.#items;
    a.push(x);
    for (let i = a.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if ((a[p] as number) <= x) break;
      a[i] = a[p] as number;
      a[p] = x;
      i = p;
    }
  }

  pop(): number {
    const a = this.#items;
    const top = a[0] as number;
    const last = a.pop() as number;
    if (a.length > 0) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && (a[l] as number) < (a[m] as number)) m = l;
        if (r < a.length && (a[r] as number) < (a[m] as number)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m] as number, a[i] as number];
        i = m;
      }
    }
    return top;
  }
}
