import { toText } from 'hast-util-to-text';
import { inlineMarkdown } from '../mdx/inlineMarkdown.js';
import type { ComponentProps, ElementContent, Root } from '../types.js';

/** True when a value looks like a hast node (JSX-valued props arrive as hast). */
function isNode(value: unknown): value is ElementContent | Root {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** A prop as plain text: strings and numbers as-is, hast flattened to its text. */
export function textProp(props: ComponentProps, name: string): string | undefined {
  const value = props[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const nodes = contentProp(props, name);
  if (!nodes) return undefined;
  return nodes.map((n) => toText(n)).join('');
}

/** A prop as renderable hast: text props become text (their inline Markdown rendered), JSX props pass through. */
export function contentProp(props: ComponentProps, name: string): ElementContent[] | undefined {
  const value = props[name];
  if (value === undefined || value === null || value === false) return undefined;
  if (typeof value === 'number') return [{ type: 'text', value: String(value) }];
  if (typeof value === 'string') return value === '' ? undefined : (inlineMarkdown(value) ?? [{ type: 'text', value }]);
  const list = Array.isArray(value) ? value : [value];
  const out: ElementContent[] = [];
  for (const item of list) {
    if (!isNode(item)) continue;
    if (item.type === 'root') out.push(...(item.children as ElementContent[]));
    else out.push(item);
  }
  return out.length > 0 ? out : undefined;
}

/** A boolean prop: a bare JSX attribute arrives as `true`; `"false"` and `false` are false. */
export function boolProp(props: ComponentProps, name: string, fallback = false): boolean {
  const value = props[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value !== 'false';
  return Boolean(value);
}

/** A numeric prop, accepting numeric strings; anything else yields the fallback. */
export function numberProp(props: ComponentProps, name: string, fallback?: number): number | undefined {
  const value = props[name];
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : fallback;
}

/** The value if it is a CSS colour safe to put in a style attribute (hex, rgb()/hsl()/oklch(), or a keyword), else undefined. */
export function safeCssColor(value: unknown): string | undefined {
  const v = typeof value === 'string' ? value.trim() : '';
  // Only colour-shaped values: anything with `;`, `:` or `url(` could inject other CSS.
  return /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla|oklch)\([\d\s.,%/-]+\)|[a-zA-Z]+)$/.test(v) ? v : undefined;
}

/** A colour prop, kept only when safe for a style attribute. */
export function colorProp(props: ComponentProps, name: string): string | undefined {
  return safeCssColor(textProp(props, name));
}
