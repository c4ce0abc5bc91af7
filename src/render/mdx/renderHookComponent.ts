import { toText } from 'hast-util-to-text';
import type { ElementContent } from '../types.js';
import { EFFECT_HOOKS } from './staticReactHooks.js';

const list = (hooks: Set<string>) => [...hooks].sort().join(', ');

/**
 * The static output of a page-defined component that calls React hooks: its first render, as a
 * reader would see it before clicking anything. When that render is empty and effects were to
 * fill it (data loading, timers), a placeholder says so instead of leaving a silent hole.
 */
export function staticHookOutput(name: string, hooks: Set<string>, out: ElementContent[], warn: (m: string) => void): ElementContent[] {
  const usesEffects = [...hooks].some((h) => EFFECT_HOOKS.has(h));
  const empty = out.every((n) =>
    n.type === 'text' ? n.value.trim() === '' : n.type === 'element' ? toText(n).trim() === '' && !hasMedia(n) : true,
  );
  if (usesEffects && empty) return [interactivePlaceholder(name, hooks, 'its content is produced in the browser', warn)];
  warn(`component ${name} uses React hooks (${list(hooks)}); rendered as on its first render, without interactivity`);
  return out;
}

/** A visible note where an interactive component's content would be, and a warning naming it. */
export function interactivePlaceholder(name: string, hooks: Set<string>, reason: string, warn: (m: string) => void): ElementContent {
  warn(`component ${name} uses React hooks (${list(hooks)}) and has no static output (${reason}); a placeholder stands in for it`);
  return {
    type: 'element',
    tagName: 'div',
    properties: { className: ['enclave-interactive-placeholder'], role: 'note', dataComponent: name },
    children: [{ type: 'text', value: `The interactive “${name}” component is not available in this offline copy.` }],
  };
}

function hasMedia(node: ElementContent): boolean {
  if (node.type !== 'element') return false;
  return (
    ['img', 'svg', 'video', 'canvas', 'iframe', 'input', 'button', 'select', 'textarea'].includes(node.tagName) ||
    node.children.some(hasMedia)
  );
}
