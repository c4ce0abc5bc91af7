import type { ComponentRenderer } from '../types.js';
import { renderIcon } from '../icons/renderIcon.js';
import { el } from './buildElement.js';
import { contentProp, textProp } from './readProps.js';

/** `owner/name` from a slug or a github.com URL; null for anything else. */
function repoSlug(value: string): string | null {
  const m = /^(?:https?:\/\/(?:www\.)?github\.com\/)?([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+?)(?:\.git)?\/?$/.exec(value.trim());
  return m ? `${m[1]}/${m[2]}` : null;
}

/**
 * `GitHub.Repo repo="owner/name" variant="inset|flat"`: the hosted card asks GitHub's API for
 * the description and counts when the page loads; offline that request can't be made, so the
 * card is built from the props alone (owner, name, an optional `description`) and links to the
 * repository, which loads nothing until a reader follows it.
 */
export const GitHubRepo: ComponentRenderer = (props, _children, ctx) => {
  const raw = textProp(props, 'repo') ?? '';
  const slug = repoSlug(raw);
  if (!slug) {
    ctx.report.warning(`GitHub.Repo needs repo="owner/name" or a github.com URL (got ${JSON.stringify(raw)})`, ctx.pagePath);
    return [];
  }
  const [owner, name] = slug.split('/');
  const variant = textProp(props, 'variant') === 'flat' ? 'flat' : 'inset';
  const description = contentProp(props, 'description');
  const extra = (textProp(props, 'className') ?? '').split(/\s+/).filter(Boolean);
  return el(
    'a',
    {
      className: ['enclave-github-repo', `enclave-github-repo-${variant}`, ...extra],
      href: `https://github.com/${slug}`,
      rel: 'noopener noreferrer',
    },
    [
      el('span', { className: ['enclave-github-repo-icon'] }, renderIcon('github', ctx, { size: 22, iconType: 'brands' })),
      el('span', { className: ['enclave-github-repo-body'] }, [
        el('span', { className: ['enclave-github-repo-name'] }, [
          el('span', { className: ['enclave-github-repo-owner'] }, `${owner} / `),
          el('strong', {}, name),
        ]),
        description ? el('span', { className: ['enclave-github-repo-description'] }, description) : null,
        el('span', { className: ['enclave-github-repo-host'] }, 'github.com'),
      ]),
    ],
  );
};
