// **rdfscout reparse**: rebuilds a crawl's store from WARC files (`crawl --warc`, or another tool's) without fetching.
import { reparseArchive } from '../crawl/reparse.ts';
import { ArgumentError } from '../errors.ts';
import { type FlagSpec, parseFlags, requirePositional, strFlag } from './args.ts';

export const REPARSE_USAGE = `Usage: rdfscout reparse OUT --warc FILE|DIR [--warc FILE|DIR …] [options]

Rebuilds a crawl's store in OUT (a new folder) from WARC files, fetching nothing: every archived response goes
through the crawl's own parsing, records and storage, in archive order. WARCs written by \`crawl --warc\` give the
same documents and records as the crawl; responses archived by other tools are read too (scope open).
A record cut short by a crash is skipped with a warning; the rest is read.

  --warc FILE|DIR           a WARC file (.warc or .warc.gz), or a folder of them (read in name order); repeatable
  --strategy NAME           the strategy that judges the links found (default: the crawl's; else fc-r+hr)
  --json                    print one JSON summary at the end`;

export const REPARSE_FLAGS: FlagSpec = {
  warc: { type: 'string', multiple: true },
  strategy: { type: 'string' },
  json: { type: 'boolean' },
};

export async function runReparseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, REPARSE_FLAGS, REPARSE_USAGE);
  const out = requirePositional(positionals, 'OUT folder');
  const warc = Array.isArray(values.warc) ? values.warc.map(String) : [];
  if (warc.length === 0) throw new ArgumentError('--warc FILE|DIR is required');
  const strategy = strFlag(values, 'strategy');
  const summary = await reparseArchive({ out, warc, ...(strategy ? { strategy } : {}), onWarning: (m) => process.stderr.write(`Warning: ${m}\n`) });
  if (values.json === true) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    const f = summary.figures;
    process.stdout.write(
      `Re-parsed ${summary.files} WARC file(s): ${summary.records} records, ${f.rdfDocuments} RDF documents, ${f.triples} triples` +
        ` (${summary.retriesSkipped} fetches put back for a retry skipped, ${summary.warnings} warnings). State: ${out}\n` +
        (summary.seqs === null ? '' : `The archive holds the crawl's records with seq ${summary.seqs.first} to ${summary.seqs.last}, ${summary.seqs.missing.length} missing between; a crawl killed with SIGKILL may have committed later ones (rdfscout stats CRAWL).\n`),
    );
  }
  return 0;
}
