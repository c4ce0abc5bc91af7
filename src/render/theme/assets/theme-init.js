// @ts-check
/* Runs before first paint: applies the saved or preferred colour scheme so pages never flash. */
(function () {
  var root = document.documentElement;
  var fallback = root.getAttribute('data-theme-default') || 'system';
  var saved = null;
  if (root.getAttribute('data-theme-strict') !== 'true') {
    try { saved = window.localStorage.getItem('enclave-theme'); } catch (e) { saved = null; }
  }
  var theme = saved === 'light' || saved === 'dark' ? saved
    : fallback === 'system' ? (window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')
    : fallback;
  root.setAttribute('data-theme', theme);
})();
