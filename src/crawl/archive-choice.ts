// **Which WARC a crawl writes**: `--warc` is kept with the crawl, so that a resume goes on archiving what
// the first run asked for. A resume that forgot the flag would otherwise leave the responses it fetched out of the
// archive, and `rdfscout reparse` would then rebuild a smaller crawl without saying why.
import { resolve, sep } from 'node:path';
import type { CrawlState } from '../state/open-state.ts';
import type { WarcWriterOptions } from '../warc/index.ts';
import { readStoredArchive, saveStoredArchive } from './crawl-meta.ts';

/** `--warc` as the crawl keeps it: the writer's options without the warcinfo fields, made at each open. */
export type ArchiveOptions = Omit<WarcWriterOptions, 'info'>;

/** What a run archives, and why: `given` now, `stored` by an earlier run, `stopped` by `--no-warc`, or `none`. */
export type ArchiveChoice = { from: 'given' | 'stored'; warc: ArchiveOptions } | { from: 'stopped' | 'none'; warc?: undefined };

/**
 * Decides what this run archives: `given` (this run's `--warc`, its path made absolute so that a resume from another
 * folder writes to the same place), else what an earlier run stored; `stop` (`--no-warc`) drops it. A target that
 * ends with a separator keeps it (the writer reads that as "a folder"). Reads only: {@link keepArchiveChoice} stores
 * the choice once its writer has opened.
 */
export async function chooseArchive(state: CrawlState, given: ArchiveOptions | undefined, stop = false): Promise<ArchiveChoice> {
  if (given !== undefined) {
    const trailing = given.target.endsWith('/') || given.target.endsWith(sep);
    return { from: 'given', warc: { ...given, target: resolve(given.target) + (trailing ? sep : '') } };
  }
  const stored = await readStoredArchive<ArchiveOptions>(state);
  if (stored === undefined) return { from: 'none' };
  return stop ? { from: 'stopped' } : { from: 'stored', warc: stored };
}

/** Stores `choice` for the next runs of the crawl: a new `--warc` replaces the old one, `--no-warc` forgets it. */
export async function keepArchiveChoice(state: CrawlState, choice: ArchiveChoice): Promise<void> {
  if (choice.from === 'given') await saveStoredArchive(state, choice.warc);
  else if (choice.from === 'stopped') await saveStoredArchive(state, undefined);
}
