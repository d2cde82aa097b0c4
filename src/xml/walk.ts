/**
 * Walking a tree that `parseXmlDocument` (`tree.ts`) made, for readers that do not list their repeating elements up
 * front: a missing element is absent, a single element is a list of one, and text is read whether or not its element
 * also has attributes.
 */
import { ATTR, TEXT } from './tree.js';

/** A parsed element: child elements by local name, attributes as `@name`, text as `#text` (or the element is text). */
export type XmlNode = Record<string, unknown>;

export function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Child elements of one name, as a list whether the file had none, one or many. */
export function childrenOf(node: unknown, name: string): unknown[] {
  if (!isNode(node)) return [];
  const value = node[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The text of the first child element of that name. */
export function childText(node: unknown, name: string): string | undefined {
  return xmlText(childrenOf(node, name)[0]);
}

export function attribute(node: unknown, name: string): string | undefined {
  if (!isNode(node)) return undefined;
  const value = node[`${ATTR}${name}`];
  return typeof value === 'string' ? value : undefined;
}

/** Text content of a parsed element: the element itself when it only holds text, `#text` when it also has attributes. */
export function xmlText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (isNode(value) && typeof value[TEXT] === 'string') return value[TEXT];
  return undefined;
}

/** A decimal number written as XML text; empty or non-numeric text is "absent", not zero. */
export function xmlNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === '' || !/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}
