// The N-Quads `export` writes for a crawl folder, as sorted lines (compares two stores quad for quad).
import { Writable } from 'node:stream';
import { exportNQuads } from '../../src/rdf/export.ts';
import { openState } from '../../src/state/open-state.ts';

/** Every stored quad of the crawl in `dir`, one N-Quads line each, sorted. */
export async function exportedLines(dir: string): Promise<string[]> {
  const state = await openState(dir);
  const parts: string[] = [];
  try {
    await exportNQuads(
      state,
      new Writable({
        write(chunk, _encoding, done) {
          parts.push(String(chunk));
          done();
        },
      }),
    );
  } finally {
    await state.close();
  }
  return parts.join('').split('\n').filter((l) => l !== '').sort();
}
