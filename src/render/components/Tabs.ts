import type { ComponentRenderer } from '../types.js';
import { renderIcon } from '../icons/renderIcon.js';
import { el } from './buildElement.js';
import { boolProp, textProp } from './readProps.js';
import { buildTabs } from './buildTabs.js';
import { elementNodes } from './contentNodes.js';

/** `Tab`: marks its content as one tab; `Tabs` turns the marks into the widget. */
export const Tab: ComponentRenderer = (props, children) =>
  el(
    'div',
    {
      className: ['enclave-tab-source'],
      dataEnclaveTab: '',
      dataTitle: textProp(props, 'title') ?? '',
      dataIcon: textProp(props, 'icon'),
      dataIconType: textProp(props, 'iconType'),
    },
    children,
  );

/** `Tabs`: tabs labelled by their titles, synced across the page by title unless `sync={false}`. */
export const Tabs: ComponentRenderer = (props, children, ctx) => {
  const items = elementNodes(children).map((child, i) => {
    const isTab = child.properties.dataEnclaveTab !== undefined;
    const label = (isTab ? String(child.properties.dataTitle ?? '') : '') || `Tab ${i + 1}`;
    const iconName = isTab && typeof child.properties.dataIcon === 'string' ? child.properties.dataIcon : undefined;
    const iconType = typeof child.properties.dataIconType === 'string' ? child.properties.dataIconType : undefined;
    return {
      label,
      icon: iconName ? renderIcon(iconName, ctx, { size: 14, iconType }) : undefined,
      panel: isTab ? child.children : [child],
    };
  });
  return buildTabs(items, ctx, { className: ['enclave-content-tabs'], syncGroup: boolProp(props, 'sync', true) ? 'tabs' : null });
};
