import type { Element, Nodes, Parents, Properties } from 'hast';
import { htmlVoidElements } from 'html-void-elements';
import { find, html, svg, type Info, type Schema } from 'property-information';

/**
 * Serializes a page's hast to HTML exactly as `hast-util-to-html` does with
 * `{ allowDangerousHtml: true }` and its other defaults (double quotes, hexadecimal character
 * references, no omitted tags, `<svg>` children closed explicitly). A test renders every page of
 * several real-world sites both ways and compares the bytes.
 *
 * Why our own: it is the last step of every page, and the general serializer resolves each
 * attribute's schema entry and builds an escaping expression per value, a visible share of the
 * render. Here the attribute lookups are cached per name and escaping only runs on strings
 * that contain something to escape.
 */
export function hastToHtml(tree: Nodes): string {
  const out: string[] = [];
  serialize(tree, undefined, html, out);
  return out.join('');
}

const VOID = new Set(htmlVoidElements);
/** In SVG, these elements' children are HTML again. */
const HTML_INTEGRATION_POINTS = new Set(['desc', 'foreignObject', 'title']);

const hex = (c: string) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`;
const TEXT_UNSAFE = /[<&]/g;
const VALUE_UNSAFE = /[\0"&'`]/g;
const NAME_UNSAFE = /[\0\t\n\f\r "&'/<=>]/g;
const COMMENT_UNSAFE = /^>|^->|<!--|-->|--!>|<!-$/g;

const escapeUnsafe = (value: string, unsafe: RegExp): string => {
  unsafe.lastIndex = 0;
  return unsafe.test(value) ? value.replace(unsafe, hex) : value;
};

/** Attribute facts by property name, per schema: looking them up is most of an attribute's cost. */
const infoCache = new Map<Schema, Map<string, Info & { escapedName: string }>>([
  [html, new Map()],
  [svg, new Map()],
]);
function infoFor(schema: Schema, key: string): Info & { escapedName: string } {
  const bySchema = infoCache.get(schema)!;
  let info = bySchema.get(key);
  if (!info) {
    const found = find(schema, key);
    info = Object.assign(Object.create(found) as Info, { escapedName: escapeUnsafe(found.attribute, NAME_UNSAFE) });
    bySchema.set(key, info);
  }
  return info;
}

/** An attribute value as the page serializer writes it between double quotes. */
export function escapeAttributeValue(value: string): string {
  return escapeUnsafe(value, VALUE_UNSAFE);
}

function attribute(schema: Schema, key: string, raw: unknown): string {
  const info = infoFor(schema, key);
  let value = raw;
  if (info.overloadedBoolean && (value === info.attribute || value === '')) value = true;
  else if ((info.boolean || info.overloadedBoolean) && (typeof value !== 'string' || value === info.attribute || value === ''))
    value = Boolean(value);
  if (value === null || value === undefined || value === false || (typeof value === 'number' && Number.isNaN(value))) return '';
  if (value === true) return info.escapedName;
  let text: string;
  if (Array.isArray(value)) {
    // A trailing empty item keeps its separator in comma lists (as comma-separated-tokens does).
    const items = info.commaSeparated && value[value.length - 1] === '' ? [...value, ''] : value;
    text = items.join(info.commaSeparated ? ', ' : ' ').trim();
  } else text = String(value);
  return `${info.escapedName}="${escapeAttributeValue(text)}"`;
}

function attributes(schema: Schema, properties: Properties | undefined): string {
  let out = '';
  if (!properties) return out;
  for (const key in properties) {
    const value = properties[key];
    if (value === null || value === undefined) continue;
    const one = attribute(schema, key, value);
    if (one) out += out ? ` ${one}` : one;
  }
  return out;
}

function children(node: Parents, schema: Schema, out: string[]): void {
  for (const child of node.children) serialize(child, node, schema, out);
}

/** True when nothing but empty strings was written after `mark`. */
function isEmptySince(out: string[], mark: number): boolean {
  for (let i = mark; i < out.length; i++) if (out[i] !== '') return false;
  return true;
}

function element(node: Element, schema: Schema, out: string[]): void {
  // An <svg> in HTML switches to the SVG schema for its own attributes and everything inside.
  const own = schema.space === 'html' && node.tagName === 'svg' ? svg : schema;
  const attrs = attributes(own, node.properties);
  const inner = own.space === 'svg' && HTML_INTEGRATION_POINTS.has(node.tagName) ? html : own;
  out.push(attrs ? `<${node.tagName} ${attrs}>` : `<${node.tagName}>`);
  const mark = out.length;
  if (schema.space === 'html' && node.tagName === 'template' && node.content) children(node.content, inner, out);
  else children(node, inner, out);
  // HTML void elements without content have no end tag; in SVG every element is closed.
  if (schema.space === 'html' && VOID.has(node.tagName.toLowerCase()) && isEmptySince(out, mark)) return;
  out.push(`</${node.tagName}>`);
}

function serialize(node: Nodes, parent: Parents | undefined, schema: Schema, out: string[]): void {
  switch (node.type) {
    case 'root':
      children(node, schema, out);
      return;
    case 'element':
      element(node, schema, out);
      return;
    case 'text':
      out.push(
        parent?.type === 'element' && (parent.tagName === 'script' || parent.tagName === 'style')
          ? node.value
          : escapeUnsafe(node.value, TEXT_UNSAFE),
      );
      return;
    case 'raw':
      out.push(node.value);
      return;
    case 'comment':
      out.push(`<!--${node.value.replace(COMMENT_UNSAFE, (m) => m.replace(/[<>]/g, hex))}-->`);
      return;
    case 'doctype':
      out.push('<!doctype html>');
      return;
    default:
      throw new Error(`cannot serialize unknown node type ${(node as { type: string }).type}`);
  }
}
