// **RecoveryLog** counts what a lenient parse left out of a document or mended in it, with the first errors.
import type { ParseProblem, ParseRecovery } from './types.ts';

/** Errors kept with their lines per document (the rest are only counted). */
const MAX_RECOVERY_ERRORS = 5;

/** Collects a document's dropped statements, dropped or repaired terms, and its first errors (lines in the document). */
export class RecoveryLog {
  dropped = 0;
  repaired = 0;
  readonly errors: ParseProblem[] = [];

  /** A statement (or a quad with a term that is not valid RDF) was left out. */
  drop(problem: ParseProblem): void {
    this.dropped++;
    if (this.errors.length < MAX_RECOVERY_ERRORS) this.errors.push(problem);
  }

  /** Forgets everything: the document is parsed again from its start. */
  reset(): void {
    this.dropped = 0;
    this.repaired = 0;
    this.errors.length = 0;
  }

  repair(n = 1): void {
    this.repaired += n;
  }

  /** Whether anything was dropped or repaired. */
  get eventful(): boolean {
    return this.dropped > 0 || this.repaired > 0;
  }

  /** Takes in another log's figures (an HTML page's blocks, each logged on its own), its errors tagged with `source`. */
  absorb(other: RecoveryLog, source?: string, lineOffset = 0): void {
    this.dropped += other.dropped;
    this.repaired += other.repaired;
    for (const e of other.errors) {
      if (this.errors.length >= MAX_RECOVERY_ERRORS) break;
      const moved: ParseProblem = { ...e };
      if (source !== undefined) moved.source = source;
      if (e.line !== undefined) moved.line = e.line + lineOffset;
      this.errors.push(moved);
    }
  }

  /** The plain record of it, or null when nothing happened. */
  summary(): ParseRecovery | null {
    return this.eventful ? { dropped: this.dropped, repaired: this.repaired, errors: [...this.errors] } : null;
  }
}
