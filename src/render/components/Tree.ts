import type { ComponentRenderer } from '../types.js';
import { renderIcon } from '../icons/renderIcon.js';
import { el } from './buildElement.js';
import { boolProp, textProp } from './readProps.js';
import { contentNodes } from './contentNodes.js';

/** `Tree`: a file tree (nested lists; folders are `<details>` so they open without JS). */
export const Tree: ComponentRenderer = (_props, children) => el('ul', { className: ['enclave-tree'] }, contentNodes(children));

/** `Tree.Folder`: a folder with `name`, open when `defaultOpen`. */
export const TreeFolder: ComponentRenderer = (props, children, ctx) =>
  el(
    'li',
    { className: ['enclave-tree-folder'] },
    el('details', { open: boolProp(props, 'defaultOpen') }, [
      el('summary', {}, [
        renderIcon('folder', ctx, { size: 14 }),
        el('span', { className: ['enclave-tree-name'] }, textProp(props, 'name') ?? ''),
      ]),
      el('ul', {}, contentNodes(children)),
    ]),
  );

/** `Tree.File`: a file with `name` and optional `comment`. */
export const TreeFile: ComponentRenderer = (props, _children, ctx) => {
  const comment = textProp(props, 'comment');
  return el('li', { className: ['enclave-tree-file'] }, [
    renderIcon('file', ctx, { size: 14, iconType: 'regular' }),
    el('span', { className: ['enclave-tree-name'] }, textProp(props, 'name') ?? ''),
    comment ? el('span', { className: ['enclave-tree-comment'] }, comment) : null,
  ]);
};
