// Writes docs/options.md from the crawl option specs (`npm run docs:options`); a test checks it is up to date.
import { writeFile } from 'node:fs/promises';
import { optionsMarkdown } from '../src/commands/option-help.ts';

const target = new URL('../docs/options.md', import.meta.url);
await writeFile(target, optionsMarkdown());
process.stdout.write(`Wrote ${target.pathname}\n`);
