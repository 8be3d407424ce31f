// parseTruth reads simweb's truth files (JSON lines) as well as JSON objects and "url label" lines (thesis §9 truth).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTruth } from '../../src/metrics/index.ts';
import { buildWeb, truthRecords, writeTruth } from '../../src/simweb/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('parseTruth', () => {
  it('reads JSON lines of truth records, ignoring other fields and unknown labels', () => {
    const text = '{"url":"http://a/x","host":"a","label":"R","depth":2}\n{"url":"http://a/y","label":"HR"}\n\n{"url":"http://a/z","label":"Q"}\n';
    expect(parseTruth(text)).toEqual(
      new Map([
        ['http://a/x', 'R'],
        ['http://a/y', 'HR'],
      ]),
    );
  });

  it('names the line of a malformed JSON line', () => {
    expect(() => parseTruth('{"url":"http://a/x","label":"R"}\n{"url": oops}\n')).toThrow(/line 2/);
  });

  it('reads a file written by simweb writeTruth: every URL with its label', async () => {
    const web = buildWeb({ profiles: 'deri-like', seed: 3, scale: 0.05 });
    const dir = await tempDir();
    const file = join(dir, 'truth.jsonl');
    const count = await writeTruth(web, file);
    const map = parseTruth(await readFile(file, 'utf8'));
    expect(map.size).toBe(count);
    for (const rec of truthRecords(web)) expect(map.get(rec.url)).toBe(rec.label);
    expect([...map.values()]).toContain('R');
  });
});
