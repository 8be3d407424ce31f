// **prepareRdfXml** checks an RDF/XML text's DTD entities and wraps a node-element root before it is parsed.
import type { ParseConfig } from './parse-options.ts';
import { CHUNK_CHARS } from './run-parser.ts';
import { RDF_NS } from './sniff.ts';
import type { ParseProblem } from './types.ts';
import { checkXmlEntities, findRootElement } from './xml-entity-guard.ts';

/** Characters of an RDF/XML document read before deciding how to feed it: its prolog and the root's start. */
const XML_HEAD_CHARS = 16 * 1024;

/**
 * RDF/XML, checked and fed as a stream: the prolog is read first; a DTD that declares entities is checked by the
 * entity guard on the whole text (refused, or fed whole); a root that is a single node element is wrapped.
 */
export async function prepareRdfXml(input: AsyncIterable<string>, config: ParseConfig): Promise<{ chunks: AsyncIterable<string> } | { problem: ParseProblem }> {
  const it = input[Symbol.asyncIterator]();
  let head = '';
  let ended = false;
  for (;;) {
    const root = findRootElement(head);
    if (root >= 0 && head.length >= root + XML_HEAD_CHARS) break;
    const next = await it.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    head += next.value;
  }
  const rest = async function* (): AsyncGenerator<string> {
    if (ended) return;
    for (let next = await it.next(); next.done !== true; next = await it.next()) yield next.value;
  };
  if (declaresEntities(head)) {
    let text = head;
    for await (const chunk of rest()) text += chunk;
    const refused = checkXmlEntities(text, config.maxEntityExpansion);
    if (refused !== null) return { problem: refused };
    return { chunks: (async function* () { yield wrapNodeElementRoot(text); })() };
  }
  const refused = checkXmlEntities(head, config.maxEntityExpansion); // parameter and external entities, if cut off
  if (refused !== null) return { problem: refused };
  const wrapped = wrapNodeElementRoot(head);
  const closing = wrapped === head ? '' : ROOT_WRAPPER_END;
  return {
    chunks: (async function* () {
      yield wrapped.slice(0, wrapped.length - closing.length);
      yield* rest();
      if (closing !== '') yield closing;
    })(),
  };
}

/** Whether the prolog of `head` declares entities (then the whole document is checked and fed as one piece). */
function declaresEntities(head: string): boolean {
  return /<!ENTITY/i.test(head.slice(0, Math.max(0, findRootElement(head)) || head.length));
}

/**
 * {@link prepareRdfXml} for a whole text that came in one piece, a leading byte-order mark dropped: refused by the
 * entity guard, or the chunks that {@link prepareRdfXml} would give (its head is then the whole text). Null when
 * a chunk would be longer than one streamed chunk (it would be split; the caller streams the text instead).
 */
export function prepareWholeRdfXml(whole: string, config: ParseConfig): { chunks: string[] } | { problem: ParseProblem } | null {
  const text = whole.charCodeAt(0) === 0xfeff ? whole.slice(1) : whole;
  const refused = checkXmlEntities(text, config.maxEntityExpansion);
  if (refused !== null) return { problem: refused };
  const wrapped = wrapNodeElementRoot(text);
  const closing = wrapped === text || declaresEntities(text) ? '' : ROOT_WRAPPER_END;
  const chunks = closing === '' ? [wrapped] : [wrapped.slice(0, wrapped.length - closing.length), closing];
  return chunks[0]!.length <= CHUNK_CHARS ? { chunks } : null;
}

const ROOT_WRAPPER_END = '</rdf:RDF>';

/**
 * RDF/XML may have a single node element as root instead of `rdf:RDF` (RDF 1.1 XML Syntax §2.7), but
 * rdfxml-streaming-parser ignores the rdf:about of a root node element. Such a root gets an `rdf:RDF` wrapper,
 * inserted on the root's own line so that error lines stay right.
 */
function wrapNodeElementRoot(text: string): string {
  const root = findRootElement(text);
  if (root < 0 || /^<(?:[\w.-]+:)?RDF[\s>/]/.test(text.slice(root, root + 64))) return text;
  if (!text.slice(root, root + 8192).includes(RDF_NS)) return text;
  return `${text.slice(0, root)}<rdf:RDF xmlns:rdf="${RDF_NS}">${text.slice(root)}${ROOT_WRAPPER_END}`;
}

