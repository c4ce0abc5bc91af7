import type { ComponentProps, ElementContent, RenderContext } from '../types.js';
import { renderIcon } from '../icons/renderIcon.js';
import { colorProp, numberProp, textProp } from './readProps.js';

/** The icon a component's `icon` prop names (with its `iconType`), or undefined when it has none. */
export function propIcon(props: ComponentProps, ctx: RenderContext, size?: number, name = 'icon'): ElementContent | undefined {
  const value = props[name];
  // A JSX-valued icon (e.g. `icon={<svg …/>}`) is already hast: use it as-is.
  if (value && typeof value === 'object' && !Array.isArray(value) && (value as { type?: string }).type === 'element')
    return value as ElementContent;
  const icon = textProp(props, name)?.trim();
  if (!icon) return undefined;
  return renderIcon(icon, ctx, {
    size: numberProp(props, 'iconSize', size),
    iconType: textProp(props, 'iconType'),
    color: colorProp(props, 'iconColor'),
  });
}
