// **CLI_NODE_FLAGS**: the V8 flags bin/rdfscout.js runs the CLI with (shared with bench/document-memory.ts).
//
// Issue 16 item 14. V8's defaults favour speed: the young generation grows to 16 MB semi-spaces and the old
// generation may grow to several times its live size before a full GC, and the committed heap stays with the
// process. Parsing, storing and indexing one 1.5 MB Turtle file (72k quads) peaked at 320 MB RSS with 197 MB of heap
// committed for ~40 MB live; with these flags at 198 MB RSS and 77 MB of heap, for about 10% more CPU while
// indexing (one scratch run each on 2 shared cores; bench/document-memory.ts measures whole crawls).
// --max-semi-space-size=2: 2 MB semi-spaces. --heap-growing-percent=50: the heap grows by half its live size.
export const CLI_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--heap-growing-percent=50'];
