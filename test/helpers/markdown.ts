// Reads markdown as the documentation tests need it: links, heading anchors, and the rdfscout commands it shows. Pure.

/** A link `[text](target)` outside code, with its 1-based line. */
export interface DocLink {
  target: string;
  line: number;
}

/** An `rdfscout …` command shown in a code block or an inline code span, as the shell would split it. */
export interface DocCommand {
  argv: string[];
  line: number;
}

/** The lines of `text` with a flag telling whether each is inside a fenced code block (fence lines count as inside). */
function linesWithFences(text: string): Array<{ line: string; n: number; code: boolean }> {
  let fenced = false;
  return text.split('\n').map((line, i) => {
    const fence = /^\s*(```|~~~)/.test(line);
    if (fence) fenced = !fenced;
    return { line, n: i + 1, code: fenced || fence };
  });
}

/** The text of a line with its inline code spans blanked out. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, (m) => ' '.repeat(m.length));
}

export function extractLinks(text: string): DocLink[] {
  const links: DocLink[] = [];
  for (const { line, n, code } of linesWithFences(text)) {
    if (code) continue;
    for (const m of withoutCodeSpans(line).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: m[1] ?? '', line: n });
  }
  return links;
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function headingSlugs(text: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line, code } of linesWithFences(text)) {
    const m = code ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = (m[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** Splits a shell command line into words (quotes and backslash-escapes honoured), stopping at an operator or comment. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      const stop = end === -1 ? line.length : end;
      word = (word ?? '') + line.slice(i + 1, stop);
      i = stop + 1;
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[i + 1];
      i += 2;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      i += 1;
    } else if (word === null && (c === '#' || c === '|' || c === '>' || c === '<' || c === '&' || c === ';')) {
      break;
    } else if (c === '|' || c === '>' || c === '&' || c === ';') {
      break;
    } else {
      word = (word ?? '') + c;
      i += 1;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** The arguments after `rdfscout` in one piece of shell, or null when it runs no rdfscout command. */
function rdfscoutArgs(shell: string): string[] | null {
  const words = shellWords(shell.trim().replace(/^\$\s+/, ''));
  const at = words[0] === 'npx' && words[1] === 'rdfscout' ? 2 : words[0] === 'rdfscout' ? 1 : -1;
  // `rdfscout …` and `rdfscout <command>` in prose stand for any command.
  if (at === -1 || words.length <= at || words[at] === '…' || words[at]?.startsWith('<')) return null;
  return words.slice(at);
}

export function extractCommands(text: string): DocCommand[] {
  const commands: DocCommand[] = [];
  let pending = '';
  let pendingLine = 0;
  for (const { line, n, code } of linesWithFences(text)) {
    if (code) {
      if (/^\s*(```|~~~)/.test(line)) continue;
      if (pending === '') pendingLine = n;
      if (line.endsWith('\\')) {
        pending += `${line.slice(0, -1)} `;
        continue;
      }
      const argv = rdfscoutArgs(pending + line);
      pending = '';
      if (argv) commands.push({ argv, line: pendingLine });
      continue;
    }
    for (const m of line.matchAll(/(`+)((?:npx )?rdfscout [^`]*?)\1/g)) {
      const argv = rdfscoutArgs((m[2] ?? '').replace(/\\\|/g, '|'));
      if (argv) commands.push({ argv, line: n });
    }
  }
  return commands;
}
