// **snapshotLevelDb** copies a LevelDB folder that another process has open, so that it can be read meanwhile.
import { copyFile, link, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** How many times a copy is tried again when the writer compacted (removed a file) while it was being taken. */
const ATTEMPTS = 8;

/**
 * Makes `dest` a consistent copy of the LevelDB folder `src` while a writer may be working in it. Table files
 * (.ldb, .sst) never change once written, so they are hard-linked (copied when `dest` is on another file system);
 * CURRENT, the MANIFEST it names and the write-ahead logs are copied. A log or MANIFEST copied in the middle of an
 * append ends in a torn record, which LevelDB's recovery drops (it is the state of a crash at that instant). When the
 * writer deletes a file during the copy (a compaction) or switches MANIFEST, the copy is taken again.
 */
export async function snapshotLevelDb(src: string, dest: string): Promise<void> {
  let lastError: unknown = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    await rm(dest, { recursive: true, force: true });
    await mkdir(dest, { recursive: true });
    try {
      const current = await readFile(join(src, 'CURRENT'), 'utf8');
      const manifest = current.trim();
      await copyFile(join(src, manifest), join(dest, manifest));
      for (const name of await readdir(src)) {
        if (/\.(ldb|sst)$/.test(name)) await linkOrCopy(join(src, name), join(dest, name));
        else if (name.endsWith('.log')) await copyFile(join(src, name), join(dest, name));
      }
      // CURRENT last, and only if the writer did not move to a new MANIFEST meanwhile.
      if ((await readFile(join(src, 'CURRENT'), 'utf8')) !== current) continue;
      await copyFile(join(src, 'CURRENT'), join(dest, 'CURRENT'));
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT') throw err;
      lastError = err; // a file went away under us: a compaction; take the copy again
    }
  }
  throw new Error(`Could not take a consistent copy of ${src} in ${ATTEMPTS} attempts (the crawl keeps compacting it): ${String(lastError)}`);
}

async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw err;
    await copyFile(from, to);
  }
}
