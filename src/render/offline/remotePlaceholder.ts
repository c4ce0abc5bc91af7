import type { Element } from 'hast';
import type { RemovedRemote } from '../report/BuildReport.js';

const LABEL: Record<RemovedRemote['kind'], string> = {
  image: 'Image',
  media: 'Media',
  frame: 'Embedded content',
  script: 'Script',
  stylesheet: 'Stylesheet',
  font: 'Font',
};

/**
 * What readers see instead of a remote image, frame or video the offline bundle can't load: a
 * visible box with the author's alt text (or title) and a link to the original, which loads
 * nothing until someone follows it.
 */
export function remotePlaceholder(original: Element, url: string, kind: RemovedRemote['kind']): Element {
  const alt = [original.properties.alt, original.properties.title, original.properties.ariaLabel].find(
    (v) => typeof v === 'string' && v.trim() !== '',
  ) as string | undefined;
  const label = `${LABEL[kind]} not included in the offline copy`;
  return {
    type: 'element',
    tagName: 'span',
    // The author's classes come along, so a light/dark pair (`dark:hidden`) still shows only one.
    properties: { className: ['enclave-remote', ...authorClasses(original)], dataRemoteKind: kind },
    children: [
      {
        type: 'element',
        tagName: 'span',
        properties: { className: ['enclave-remote-alt'] },
        children: [{ type: 'text', value: alt ?? label }],
      },
      ...(alt
        ? [
            {
              type: 'element' as const,
              tagName: 'span',
              properties: { className: ['enclave-remote-note'] },
              children: [{ type: 'text' as const, value: label }],
            },
          ]
        : []),
      {
        type: 'element',
        tagName: 'a',
        properties: { className: ['enclave-remote-link'], href: url, rel: ['noreferrer', 'noopener'] },
        children: [{ type: 'text', value: 'Open the original' }],
      },
    ],
  };
}

function authorClasses(el: Element): string[] {
  const names = el.properties.className;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}
