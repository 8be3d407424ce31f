// **TextWindow** remembers the last chunks fed to a parser, to turn an error's character position into a line.

/** Chunks kept by a {@link TextWindow} to place an error's character position on a line. */
const WINDOW_CHUNKS = 4;

/** Remembers where the last chunks fed to a parser start (character offset and line), to turn a position into a line. */
export class TextWindow {
  readonly #recent: Array<{ start: number; line: number; text: string }> = [];
  #offset = 0;
  #line = 1;

  /** Forgets the chunks: the text is read again from its start. */
  reset(): void {
    this.#recent.length = 0;
    this.#offset = 0;
    this.#line = 1;
  }

  async *track(input: AsyncIterable<string>): AsyncGenerator<string> {
    for await (const text of input) yield this.record(text);
  }

  /** Remembers `text` as the next chunk fed to the parser; returns it. */
  record(text: string): string {
    this.#recent.push({ start: this.#offset, line: this.#line, text });
    if (this.#recent.length > WINDOW_CHUNKS) this.#recent.shift();
    this.#offset += text.length;
    this.#line += countNewlines(text, text.length);
    return text;
  }

  /** The line of character `position`, if it lies in a chunk still remembered (else the earliest remembered line). */
  lineAt(position: number): number | undefined {
    const chunk = this.#recent.findLast((c) => c.start <= position) ?? this.#recent[0];
    if (chunk === undefined) return undefined;
    return chunk.line + countNewlines(chunk.text, Math.max(0, position - chunk.start));
  }
}

function countNewlines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The line of a parser error: n3 gives it in `context.line`, saxes as `L:C:` or `Line L`, JSON as `position N`. */
export function errorLine(error: Error, window: TextWindow): number | undefined {
  const context = (error as { context?: { line?: unknown } }).context;
  if (typeof context?.line === 'number') return context.line;
  const m = /^(\d+):\d+:|\bline:? (\d+)/i.exec(error.message);
  if (m !== null) return Number(m[1] ?? m[2]);
  const pos = /\bposition (\d+)/i.exec(error.message);
  if (pos !== null) return window.lineAt(Number(pos[1]));
  return undefined;
}
