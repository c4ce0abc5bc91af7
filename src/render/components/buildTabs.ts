import type { Element, ElementContent, RenderContext } from '../types.js';
import { el } from './buildElement.js';

/** One tab: its label (text, used for syncing), optional icon, and panel content. */
export interface TabItem {
  label: string;
  icon?: ElementContent;
  panel: ElementContent[];
}

/** How a tab set looks and which other sets on the page it follows. */
export interface TabsOptions {
  className: string[];
  /** Tab sets with the same sync group switch together by label (and remember it); null: no syncing. */
  syncGroup: string | null;
  /** Render a `<select>` instead of a row of tab buttons (CodeGroup `dropdown`). */
  dropdown?: boolean;
  /** Accessible name of the tab list. */
  label?: string;
}

/**
 * The accessible tab widget shared by Tabs, CodeGroup, RequestExample and ResponseExample:
 * a `tablist` of `tab` buttons wired to `tabpanel`s; components.js adds clicks, arrow keys and
 * syncing. The first panel is visible without JS.
 */
export function buildTabs(items: TabItem[], ctx: RenderContext, opts: TabsOptions): Element {
  const id = ctx.nextId('tabs');
  const panels = items.map((item, i) =>
    el(
      'div',
      {
        className: ['enclave-tabpanel'],
        role: 'tabpanel',
        id: `${id}-panel-${i}`,
        ariaLabelledby: opts.dropdown ? undefined : `${id}-tab-${i}`,
        ariaLabel: opts.dropdown ? item.label : undefined,
        tabIndex: 0,
        dataLabel: item.label,
        hidden: i > 0,
      },
      item.panel,
    ),
  );
  const control = opts.dropdown
    ? el(
        'select',
        { className: ['enclave-tabs-select'], ariaLabel: opts.label ?? 'Choose an example', dataEnclaveTabsSelect: '' },
        items.map((item, i) => el('option', { value: String(i), selected: i === 0 }, item.label)),
      )
    : el(
        'div',
        { className: ['enclave-tablist'], role: 'tablist', ariaLabel: opts.label },
        items.map((item, i) =>
          el(
            'button',
            {
              type: 'button',
              className: ['enclave-tab'],
              role: 'tab',
              id: `${id}-tab-${i}`,
              ariaControls: `${id}-panel-${i}`,
              ariaSelected: i === 0 ? 'true' : 'false',
              // Roving tabindex: Tab reaches the selected tab; arrows move between tabs.
              tabIndex: i === 0 ? 0 : -1,
              dataLabel: item.label,
            },
            [item.icon ?? null, el('span', {}, item.label)],
          ),
        ),
      );
  return el(
    'div',
    {
      className: ['enclave-tabs', ...opts.className],
      dataEnclaveTabs: '',
      dataSync: opts.syncGroup ?? undefined,
    },
    [control, ...panels],
  );
}
