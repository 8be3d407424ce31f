// **CLI_NODE_FLAGS**: the V8 flags bin/rdfscout.js runs the CLI with (shared with bench/document-memory.ts).
//
// V8's defaults favour speed: the young generation grows to 16 MB semi-spaces and the old
// generation may grow to several times its live size before a full GC, and the committed heap stays with the
// process. Parsing, storing and indexing one 1.5 MB Turtle file (72k quads) peaked at 320 MB RSS with 197 MB of heap
// committed for ~40 MB live; with these flags at 198 MB RSS and 77 MB of heap, for about 10% more CPU while
// indexing (one scratch run each on 2 shared cores; bench/document-memory.ts measures whole crawls).
// --max-semi-space-size=2: 2 MB semi-spaces. --heap-growing-percent=25: the heap grows by a quarter of its live size
// before a full GC. With 50, what a large document added was mostly that headroom (~+18 MB of garbage on a ~36 MB
// live heap, whatever the document): 25 took the 1.5 MB Turtle file from 20-22x its size to 11-15x and the 1 MB
// JSON-LD file from ~28x to 19-20x, for ~10% more CPU in the five-site crawl (13.9/13.5 s -> 15.3/15.1 s, two runs
// each of bench/document-memory.ts --scale 0.2 on the loaded machine).
export const CLI_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--heap-growing-percent=25'];

/**
 * Environment the CLI runs with (set when it re-executes itself with {@link CLI_NODE_FLAGS}; a value the user set
 * wins). MALLOC_ARENA_MAX=2: glibc gives each thread that allocates (LevelDB's writes run on libuv's thread pool) its
 * own malloc arena, and memory freed in an arena is rarely given back; with two arenas, indexing one 1.5 MB Turtle
 * file raised RSS by 54–60 MB instead of 87–98 MB (bench/document-memory.ts probe).
 */
export const CLI_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
