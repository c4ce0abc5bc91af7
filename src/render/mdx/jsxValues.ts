import type { Properties } from 'hast';
import type { ElementContent } from '../types.js';
import { HastFragment, StaticFunction } from './evaluateEstree.js';

/** Turns an evaluated expression value into hast content, the way React would print it. */
export function valueToHast(value: unknown, warn: (message: string) => void): ElementContent[] {
  if (value === null || value === undefined || typeof value === 'boolean') return [];
  if (typeof value === 'string') return value ? [{ type: 'text', value }] : [];
  if (typeof value === 'number' || typeof value === 'bigint') return [{ type: 'text', value: String(value) }];
  if (value instanceof HastFragment) return value.nodes;
  if (Array.isArray(value)) return value.flatMap((v) => valueToHast(v, warn));
  if (value instanceof StaticFunction) {
    warn('a function was used where content was expected');
    return [];
  }
  warn('an object was used where content was expected');
  return [];
}

/** Maps JSX props of an intrinsic element (`<div className style={{…}}>`) to hast properties. */
export function propsToProperties(props: Record<string, unknown>): Properties {
  const out: Properties = {};
  for (const [key, value] of Object.entries(props)) {
    if (key === 'children' || key === 'key' || key === 'ref' || /^on[A-Z]/.test(key)) continue;
    if (value === null || value === undefined || value === false) continue;
    if (key === 'style' && typeof value === 'object' && !(value instanceof HastFragment)) {
      out.style = styleText(value as Record<string, unknown>);
      continue;
    }
    if (key === 'className' || key === 'class') {
      out.className = String(value).split(/\s+/).filter(Boolean);
      continue;
    }
    if (key === 'htmlFor') {
      out.htmlFor = String(value).split(/\s+/);
      continue;
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number'))
      out[key] = value.map(String).join(' ');
  }
  return out;
}

/** `{fontSize: 12, marginTop: '1em'}` → `font-size:12px;margin-top:1em` (React's unitless-number rule, simplified). */
function styleText(style: Record<string, unknown>): string {
  const unitless = /^(?:opacity|z-?index|font-?weight|line-?height|flex(?:-?grow|-?shrink)?|order|zoom)$/i;
  return Object.entries(style)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
    .map(([k, v]) => {
      const prop = k.startsWith('--') ? k : k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      const val = typeof v === 'number' && v !== 0 && !unitless.test(k) ? `${v}px` : String(v);
      return `${prop}:${val}`;
    })
    .join(';');
}

/** React's JSX text rule: lines are trimmed, blank lines dropped, the rest joined by one space. */
export function jsxText(value: string): string {
  const lines = value.split(/\r\n|\n|\r/);
  if (lines.length === 1) return value;
  const kept: string[] = [];
  lines.forEach((line, i) => {
    let l = line.replace(/\t/g, ' ');
    if (i > 0) l = l.replace(/^ +/, '');
    if (i < lines.length - 1) l = l.replace(/ +$/, '');
    if (l) kept.push(l);
  });
  return kept.join(' ');
}
