import type { Element, ElementContent } from '../types.js';

/** A property value as hast stores it; `undefined`, `null` and `false` drop the property. */
export type PropValue = string | number | boolean | (string | number)[] | null | undefined;

/** Anything that can become element children: nodes, strings, nested lists, or nothing. */
export type ChildInput = ElementContent | string | number | null | undefined | false | ChildInput[];

/** Flattens child input into hast nodes, turning strings into text nodes and dropping blanks. */
export function toChildren(input: ChildInput): ElementContent[] {
  const out: ElementContent[] = [];
  const add = (c: ChildInput): void => {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) {
      for (const x of c) add(x);
    } else if (typeof c === 'string' || typeof c === 'number') {
      const value = String(c);
      if (value !== '') out.push({ type: 'text', value });
    } else {
      out.push(c);
    }
  };
  add(input);
  return out;
}

/** Builds a hast element; properties use hast names (`className`, `ariaLabel`, `dataFoo`). */
export function el(tagName: string, properties: Record<string, PropValue> = {}, children: ChildInput = []): Element {
  const props: Element['properties'] = {};
  for (const [key, value] of Object.entries(properties)) {
    if (value === undefined || value === null || value === false) continue;
    props[key] = value;
  }
  return { type: 'element', tagName, properties: props, children: toChildren(children) };
}
