import { DOCUMENT_POLICY_META } from '../../platform/documentPolicyMeta.js';
import { escapeHtml } from '../theme/escapeHtml.js';

/** A small HTML page that forwards to `target` (relative or absolute), with a link for no-refresh clients. */
export function buildRedirectPage(target: string, canonical?: string): string {
  const t = escapeHtml(target);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    DOCUMENT_POLICY_META,
    '<title>Redirecting&hellip;</title>',
    `<meta http-equiv="refresh" content="0; url=${t}">`,
    canonical ? `<link rel="canonical" href="${escapeHtml(canonical)}">` : '',
    '<meta name="robots" content="noindex">',
    '</head>',
    `<body><main><p>This page has moved to <a href="${t}">${t}</a>.</p></main></body>`,
    '</html>',
    '',
  ]
    .filter(Boolean)
    .join('\n');
}
