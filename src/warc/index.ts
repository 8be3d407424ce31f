// The public face of WARC support: raw responses written while crawling (`--warc`) and read back (`reparse`).
export { FetchArchive } from './fetch-archive.ts';
export { type ArchivedItem, type ArchivedResponse, listWarcFiles, readArchive } from './warc-reader.ts';
export { exchangeRecords } from './warc-records.ts';
export { WarcWriter, type WarcWriterOptions } from './warc-writer.ts';
