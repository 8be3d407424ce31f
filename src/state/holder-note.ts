// **holder note**: which process holds a crawl store (LevelDB's LOCK says only that one does), for read commands to name it.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** What `DIR/holder.json` says about the process whose handle indexes the store in `DIR`. */
export interface HolderNote {
  pid: number;
  /** e.g. `rdfscout serve`, `rdfscout crawl`, or the script's name. */
  command: string;
  /** ISO time the store was opened. */
  since: string;
}

const FILE = 'holder.json';

/** The command line's name of this process: `rdfscout <subcommand>` for the CLI, else the script's file name. */
function commandName(): string {
  const script = basename(process.argv[1] ?? 'node');
  return /^(rdfscout|cli)(\.[cm]?[jt]s)?$/.test(script) ? `rdfscout ${process.argv[2] ?? ''}`.trim() : script;
}

/** Notes this process as the holder of the store in `dir` (best effort: a read-only folder just has no note). */
export async function writeHolderNote(dir: string): Promise<void> {
  const note: HolderNote = { pid: process.pid, command: commandName(), since: new Date().toISOString() };
  await writeFile(join(dir, FILE), `${JSON.stringify(note)}\n`).catch(() => {});
}

/** Removes the note if it is this process's. */
export async function removeHolderNote(dir: string): Promise<void> {
  const note = await readHolderNote(dir);
  if (note?.pid === process.pid) await rm(join(dir, FILE), { force: true }).catch(() => {});
}

/** The holder of the store in `dir`, if its note names a process that is still alive. */
export async function readHolderNote(dir: string): Promise<HolderNote | null> {
  let note: HolderNote;
  try {
    note = JSON.parse(await readFile(join(dir, FILE), 'utf8')) as HolderNote;
  } catch {
    return null;
  }
  if (!Number.isInteger(note.pid)) return null;
  try {
    process.kill(note.pid, 0); // signal 0: only asks whether the process exists
  } catch (err) {
    if ((err as { code?: string }).code === 'ESRCH') return null;
  }
  return note;
}

/** `a running \`rdfscout serve\` (pid 4242, since …)`, or `another process` when nothing says which. */
export function describeHolder(note: HolderNote | null): string {
  return note === null ? 'another process' : `a running \`${note.command}\` (pid ${note.pid}, since ${note.since})`;
}
