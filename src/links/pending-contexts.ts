// **PendingContexts**: links of a page waiting for their context words after them (extractLinks' surrounding text).
import type { LinkFeatures } from './types.ts';

interface PendingContext {
  features: LinkFeatures;
  before: readonly string[];
  /** The count of words seen when the link closed: its words after are the ones seen since. */
  afterFrom: number;
}

/**
 * The links whose `context` still waits for its words after them, oldest first. A link's context is its words
 * before (given when it closes) and the next `contextWords` words of its block (`word`), or fewer when the block
 * ends first (`finishAll`). The words after of every pending link are a suffix of one list, the words seen since the
 * oldest one closed, so a word is stored once whatever the number of links waiting for it; the links that complete
 * at once are a prefix (they closed first). Both lists keep a count of their own and are never shortened (V8 gives up
 * an array's storage when its length drops), so each grows to the most a page needs once.
 */
export class PendingContexts {
  readonly #contextWords: number;
  readonly #pending: Array<PendingContext | null> = [];
  #count = 0;
  /** `#after[i]` is word number `#afterBase + i` of the page. */
  readonly #after: string[] = [];
  #afterCount = 0;
  #afterBase = 0;
  /** Words seen so far. */
  #seen = 0;

  constructor(contextWords: number) {
    this.#contextWords = contextWords;
  }

  /** Links waiting. */
  get size(): number {
    return this.#count;
  }

  /** A link closed, with its words before: it waits for its words after. */
  add(features: LinkFeatures, before: readonly string[]): void {
    if (this.#count === 0) {
      this.#afterCount = 0;
      this.#afterBase = this.#seen;
    }
    this.#pending[this.#count++] = { features, before, afterFrom: this.#seen };
  }

  /** A word of the block: every waiting link's next word after; a link is complete with `contextWords` of them (with 0, the one word that came). */
  word(w: string): void {
    this.#seen++;
    if (this.#count === 0) return;
    this.#after[this.#afterCount++] = w;
    let n = 0;
    while (n < this.#count && this.#seen - (this.#pending[n] as PendingContext).afterFrom >= this.#contextWords) n++;
    if (n > 0) this.#finishFirst(n);
  }

  /** The block ended: every waiting link gets its context with the words after it so far. */
  finishAll(): void {
    if (this.#count > 0) this.#finishFirst(this.#count);
  }

  /** Sets the context of the first `n` links and drops the words after that no waiting link needs any more. */
  #finishFirst(n: number): void {
    const pending = this.#pending;
    for (let i = 0; i < n; i++) this.#finish(pending[i] as PendingContext);
    pending.copyWithin(0, n, this.#count);
    this.#count -= n;
    pending.fill(null, this.#count, this.#count + n);
    if (this.#count === 0) {
      this.#afterCount = 0;
      this.#afterBase = this.#seen;
    } else {
      const drop = (pending[0] as PendingContext).afterFrom - this.#afterBase;
      this.#after.copyWithin(0, drop, this.#afterCount);
      this.#afterCount -= drop;
      this.#afterBase += drop;
    }
  }

  #finish(p: PendingContext): void {
    const from = p.afterFrom - this.#afterBase;
    const words = new Array<string>(p.before.length + this.#afterCount - from);
    let k = 0;
    for (const w of p.before) words[k++] = w;
    for (let i = from; i < this.#afterCount; i++) words[k++] = this.#after[i] as string;
    p.features.context = words.join(' ');
  }
}
