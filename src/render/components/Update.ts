import { slug } from 'github-slugger';
import type { ComponentRenderer } from '../types.js';
import { el } from './buildElement.js';
import { contentProp, textProp } from './readProps.js';

/** `Update`: a changelog entry with `label` (also its anchor), `description` and `tags`. */
export const Update: ComponentRenderer = (props, children) => {
  const label = textProp(props, 'label') ?? '';
  const id = slug(label) || undefined;
  const description = contentProp(props, 'description');
  const tags = Array.isArray(props.tags) ? props.tags.filter((t): t is string => typeof t === 'string') : [];
  return el('section', { className: ['enclave-update'], id, dataEnclaveUpdate: '' }, [
    el('div', { className: ['enclave-update-meta'] }, [
      label ? el('a', { className: ['enclave-update-label'], href: id ? `#${id}` : undefined }, label) : null,
      description ? el('p', { className: ['enclave-update-description'] }, description) : null,
      tags.length > 0
        ? el(
            'ul',
            { className: ['enclave-update-tags'], ariaLabel: 'Tags' },
            tags.map((t) => el('li', {}, t)),
          )
        : null,
    ]),
    el('div', { className: ['enclave-update-body'] }, children),
  ]);
};
