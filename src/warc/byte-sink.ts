// **ByteSink** is one growable byte buffer, reused batch after batch: WARC records are framed straight into it.

/**
 * Bytes appended at the end of one buffer that is kept and reused (`clear()`), so framing a batch of records
 * allocates nothing per record: no Buffer per head, no `Buffer.concat` per record or per batch. Each Buffer of 4 kB
 * or more is an ArrayBuffer of its own that the garbage collector must track and free; in bench:throughput's
 * profile of `--warc`, GC was a fifth of the archive's cost (docs/research-notes.md "WARC").
 */
export class ByteSink {
  #buf: Buffer;
  /** Bytes in use, from offset 0. */
  length = 0;

  /** `initialBytes`: the buffer's first size; it doubles when a batch needs more. Default: 256 kB. */
  constructor(initialBytes = 256 * 1024) {
    this.#buf = Buffer.allocUnsafeSlow(initialBytes);
  }

  /** The buffer itself (valid until the next append that grows it). */
  get buffer(): Buffer {
    return this.#buf;
  }

  /** The bytes from `start` to the end, as a view (no copy; valid until the next append that grows the buffer). */
  view(start = 0, end = this.length): Buffer {
    return this.#buf.subarray(start, end);
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    const need = this.length + n;
    if (need <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafeSlow(size);
    this.#buf.copy(next, 0, 0, this.length);
    this.#buf = next;
  }

  /** Appends `n` bytes left to be filled in later (`buffer` at the returned offset). */
  skip(n: number): number {
    this.reserve(n);
    const at = this.length;
    this.length += n;
    return at;
  }

  /** Appends bytes. */
  put(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.#buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** Appends a string's bytes: `latin1` (one byte per character, as HTTP heads are) or `utf8`. */
  text(s: string, encoding: 'latin1' | 'utf8'): void {
    this.reserve(encoding === 'latin1' ? s.length : s.length * 3);
    this.length += this.#buf.write(s, this.length, encoding);
  }

  /** Empties the sink, keeping its buffer (a very large one is let go, so one huge record does not stay in memory). */
  clear(): void {
    this.length = 0;
    if (this.#buf.length > 8 * 1024 * 1024) this.#buf = Buffer.allocUnsafeSlow(256 * 1024);
  }
}
