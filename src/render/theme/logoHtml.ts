import { escapeHtml } from './escapeHtml.js';

/** The site's logo (light and dark when they differ) or, without one, its name. */
export function logoHtml(site: { name: string; logo?: { light: string; dark: string } }): string {
  if (!site.logo) return `<span>${escapeHtml(site.name)}</span>`;
  const alt = escapeHtml(site.name);
  if (site.logo.light === site.logo.dark) return `<img src="${site.logo.light}" alt="${alt}">`;
  return `<img class="enclave-logo-light" src="${site.logo.light}" alt="${alt}"><img class="enclave-logo-dark" src="${site.logo.dark}" alt="${alt}">`;
}
