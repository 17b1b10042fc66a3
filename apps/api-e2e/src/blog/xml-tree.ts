import { SaxesParser } from 'saxes';

/** An element of a parsed XML document: its expanded name, attributes, children and direct text. */
export interface XmlElement {
  name: string;
  uri: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/**
 * Parses a document with saxes, a strict XML 1.0 parser with namespaces (it refuses what is not
 * well-formed, characters XML forbids included), and returns its root. Throws on the first error.
 */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let failure: Error | undefined;
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentag', (tag) => {
    const attributes = Object.fromEntries(Object.values(tag.attributes).map((a) => [a.local, a.value]));
    const element: XmlElement = { name: tag.local, uri: tag.uri, attributes, children: [], text: '' };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on('text', (text) => {
    if (stack.length > 0) stack.at(-1)!.text += text;
  });
  parser.on('cdata', (text) => {
    if (stack.length > 0) stack.at(-1)!.text += text;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  if (failure) throw failure;
  if (!root) throw new Error('no root element');
  return root;
}

/** The children of `element` named `name`. */
export const childrenNamed = (element: XmlElement, name: string): XmlElement[] => element.children.filter((c) => c.name === name);

/** The one child named `name` (throws when there is not exactly one). */
export function child(element: XmlElement, name: string): XmlElement {
  const found = childrenNamed(element, name);
  if (found.length !== 1) throw new Error(`<${element.name}> has ${found.length} <${name}>`);
  return found[0]!;
}
