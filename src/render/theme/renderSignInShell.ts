import { SIGN_IN_FORM_MARK } from '../../platform/access/signInShell.js';
import { escapeHtml } from './escapeHtml.js';
import { logoHtml } from './logoHtml.js';
import type { ShellSite } from './renderPageShell.js';
import { ROOT_MARK } from './renderSidebar.js';

/**
 * The reader sign-in page's frame in the site's own theme: the pages' stylesheets (fonts,
 * colours from docs.json, light and dark), the colour-scheme script that runs before paint, the
 * favicon, and the logo and name above a card where the appliance puts the form. Nothing of the
 * navigation: a reader not signed in must not learn page names from it. Root-absolute links,
 * like the 404 page, as it is served at any path.
 */
export function renderSignInShell(site: ShellSite): string {
  const e = escapeHtml;
  const html = [
    '<!doctype html>',
    `<html lang="${e(site.lang)}" class="enclave-theme-${e(site.theme)}" data-theme-default="${site.appearance.default}"${site.appearance.strict ? ' data-theme-strict="true"' : ''}>`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>Sign in · ${e(site.name)}</title>`,
    site.favicon ? `<link rel="icon" href="${site.favicon}">` : '',
    ...site.headScripts.map((s) => `<script src="${ROOT_MARK}${e(s)}"></script>`),
    ...site.styles.map((s) => `<link rel="stylesheet" href="${ROOT_MARK}${e(s)}">`),
    `<style>${SIGN_IN_STYLE}</style>`,
    '</head>',
    '<body class="enclave-sign-in-page">',
    `<main class="enclave-sign-in"><div class="enclave-logo">${logoHtml(site)}</div>`,
    `<h1>Sign in to ${e(site.name)}</h1>`,
    SIGN_IN_FORM_MARK,
    '</main>',
    '</body>',
    '</html>',
    '',
  ]
    .filter(Boolean)
    .join('\n');
  return html.split(ROOT_MARK).join('/');
}

/** The card around the form, drawn with the theme's own custom properties so docs.json's colours and both schemes apply. */
const SIGN_IN_STYLE = [
  '.enclave-sign-in-page{min-height:100vh;display:grid;place-items:center;margin:0}',
  '.enclave-sign-in{width:min(22rem,90vw);padding:2rem;border:1px solid var(--enclave-border);border-radius:1rem;background:var(--enclave-surface)}',
  '.enclave-sign-in h1{font-size:1.25rem;margin:1rem 0}',
  '.enclave-sign-in label{display:block;font-size:.875rem;margin-bottom:.25rem}',
  '.enclave-sign-in input{box-sizing:border-box;width:100%;padding:.5rem .75rem;border:1px solid var(--enclave-border);border-radius:.5rem;font:inherit;background:var(--enclave-bg);color:var(--enclave-fg)}',
  '.enclave-sign-in button{margin-top:1rem;width:100%;padding:.5rem;border:0;border-radius:.5rem;background:var(--enclave-button-bg);color:var(--enclave-button-fg);font:inherit;cursor:pointer}',
  '.enclave-sign-in .message{color:#d1242f;font-size:.875rem}',
].join('');
