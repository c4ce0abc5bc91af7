// @ts-check
// size: shipped to browsers as one script (no bundler): theme, sidebar and search on the page
/* Enclave theme runtime: dark mode, mobile navigation, table-of-contents highlight and offline search.
   A classic script (no modules, no fetch) so it works from file:// as well as from any web server. */
(function () {
  'use strict';
  var doc = document;
  var root = doc.documentElement;
  var me = doc.currentScript || doc.querySelector('script[data-enclave-theme]');
  var siteRoot = (me && me.getAttribute('data-root')) || '';
  var indexUrl = me && me.getAttribute('data-search-index');

  /* Interface text in the page's language: a JSON block on translated pages (see renderPageShell),
     else the English given here. Shared with the other Enclave scripts through window.__enclaveText. */
  var uiText = {};
  try {
    var uiBlock = doc.getElementById('enclave-interface-text');
    if (uiBlock) uiText = JSON.parse(uiBlock.textContent) || {};
  } catch (e) { uiText = {}; }
  function uiString(key, english) { return typeof uiText[key] === 'string' ? uiText[key] : english; }
  window.__enclaveText = uiString;

  function store(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* storage may be disabled */ }
  }

  /* Dark mode */
  var toggle = doc.querySelector('.enclave-theme-toggle');
  function syncToggle() {
    if (toggle) toggle.setAttribute('aria-pressed', root.getAttribute('data-theme') === 'dark' ? 'true' : 'false');
  }
  syncToggle();
  if (toggle) {
    toggle.addEventListener('click', function () {
      var next = root.getAttribute('data-theme') === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      store('enclave-theme', next);
      syncToggle();
    });
  }

  /* Mobile navigation */
  var menu = doc.querySelector('.enclave-menu-toggle');
  function setMenu(open) {
    doc.body.classList.toggle('enclave-nav-open', open);
    if (menu) {
      menu.setAttribute('aria-expanded', open ? 'true' : 'false');
      menu.setAttribute('aria-label', open ? uiString('closeNavigation', 'Close navigation') : uiString('openNavigation', 'Open navigation'));
    }
  }
  if (menu) menu.addEventListener('click', function () { setMenu(!doc.body.classList.contains('enclave-nav-open')); });

  /* Keep the current page visible in a long sidebar */
  var current = doc.querySelector('.enclave-sidebar a[aria-current="page"]');
  if (current) {
    for (var el = current.parentElement; el; el = el.parentElement) if (el.tagName === 'DETAILS') /** @type {HTMLDetailsElement} */ (el).open = true;
    // Scroll the sidebar alone: scrollIntoView would scroll the window too, and pages must open at the top.
    var bar = doc.getElementById('enclave-sidebar');
    if (bar && bar.scrollHeight > bar.clientHeight) {
      var below = current.getBoundingClientRect().top - bar.getBoundingClientRect().top;
      if (below > bar.clientHeight - 40) bar.scrollTop += below - bar.clientHeight / 2;
    }
  }

  /* Table of contents: mark the section being read */
  var tocLinks = Array.prototype.slice.call(doc.querySelectorAll('.enclave-toc a[href^="#"]'));
  if (tocLinks.length && 'IntersectionObserver' in window) {
    var byId = {};
    tocLinks.forEach(function (a) { byId[decodeURIComponent(a.getAttribute('href').slice(1))] = a; });
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        tocLinks.forEach(function (a) { a.classList.remove('enclave-toc-active'); });
        var link = byId[entry.target.id];
        if (link) link.classList.add('enclave-toc-active');
      });
    }, { rootMargin: '0px 0px -70% 0px' });
    Object.keys(byId).forEach(function (id) { var h = doc.getElementById(id); if (h) observer.observe(h); });
  }

  /* Search */
  var dialog = doc.getElementById('enclave-search');
  var input = /** @type {HTMLInputElement} */ (doc.getElementById('enclave-search-input'));
  var list = doc.getElementById('enclave-search-results');
  var status = doc.getElementById('enclave-search-status');
  var openers = doc.querySelectorAll('.enclave-search-button');
  /** @type {Element | null} */
  var lastFocus = null;
  var loading = false;
  var active = -1;

  function loadIndex(done) {
    if (window.__enclaveSearchIndex) return done();
    if (!indexUrl) return;
    if (loading) return;
    loading = true;
    status.textContent = uiString('searchLoading', 'Loading search index…');
    var s = doc.createElement('script');
    s.src = indexUrl;
    s.onload = function () { loading = false; done(); };
    s.onerror = function () { loading = false; status.textContent = uiString('searchFailed', 'The search index could not be loaded.'); };
    doc.head.appendChild(s);
  }

  /* Search stays within the reader's language, version and product unless they ask for everything. */
  var scopeMeta = doc.querySelector('meta[name="enclave-search-scope"]');
  var scope = (scopeMeta && scopeMeta.getAttribute('content')) || '';
  var allScopes = false;
  if (scope && input) {
    var scopeLabel = doc.createElement('label');
    scopeLabel.className = 'enclave-search-scope';
    var scopeBox = doc.createElement('input');
    scopeBox.type = 'checkbox';
    scopeBox.id = 'enclave-search-all';
    scopeLabel.appendChild(scopeBox);
    scopeLabel.appendChild(doc.createTextNode(' ' + uiString('searchAll', 'Search all languages, versions and products')));
    input.parentNode.insertBefore(scopeLabel, input.nextSibling);
    scopeBox.addEventListener('change', function () { allScopes = scopeBox.checked; render(); input.focus(); });
  }

  /* The section a match is in: a heading that matches, else the heading before the first body match. */
  function sectionOf(p, terms) {
    var heads = p[2] || [], sections = p[5] || [];
    for (var i = 0; i < heads.length; i++) {
      var h = heads[i].toLowerCase();
      for (var j = 0; j < terms.length; j++) if (h.indexOf(terms[j]) >= 0 && sections[i]) return { id: sections[i][0], title: heads[i] };
    }
    var body = (p[4] || '').toLowerCase(), at = -1;
    for (var k = 0; k < terms.length; k++) { var a = body.indexOf(terms[k]); if (a >= 0 && (at < 0 || a < at)) at = a; }
    var found = null;
    if (at >= 0) for (var n = 0; n < sections.length; n++) if (sections[n] && sections[n][1] >= 0 && sections[n][1] <= at) found = { id: sections[n][0], title: heads[n] };
    return found;
  }

  function tokens(q) {
    return q.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(function (t) { return t.length > 0; });
  }

  /* Ranks title matches above heading matches above body matches; every term must match somewhere. */
  function search(q) {
    var terms = tokens(q);
    var pages = (window.__enclaveSearchIndex && window.__enclaveSearchIndex.pages) || [];
    if (!terms.length) return [];
    var results = [];
    for (var i = 0; i < pages.length; i++) {
      var p = pages[i];
      if (scope && !allScopes && p[6] && p[6] !== scope) continue;
      var title = p[1].toLowerCase(), heads = p[2].join('\n').toLowerCase(), desc = (p[3] || '').toLowerCase(), body = (p[4] || '').toLowerCase();
      var score = 0, all = true;
      for (var j = 0; j < terms.length; j++) {
        var t = terms[j], s = 0;
        if (title.indexOf(t) >= 0) s += title === t || title.indexOf(t) === 0 ? 120 : 100;
        if (heads.indexOf(t) >= 0) s += 30;
        if (desc.indexOf(t) >= 0) s += 15;
        if (body.indexOf(t) >= 0) s += 5 + Math.min(body.split(t).length - 1, 10);
        if (!s) { all = false; break; }
        score += s;
      }
      if (all) results.push({ page: p, score: score });
    }
    results.sort(function (a, b) { return b.score - a.score; });
    return results.slice(0, 20).map(function (r) { return { path: r.page[0], title: r.page[1], snippet: snippet(r.page, terms), section: sectionOf(r.page, terms) }; });
  }

  function snippet(p, terms) {
    var text = p[4] || p[3] || '';
    var lower = text.toLowerCase(), at = -1;
    for (var i = 0; i < terms.length && at < 0; i++) at = lower.indexOf(terms[i]);
    if (at < 0) return text.slice(0, 140);
    var start = Math.max(0, at - 60);
    return (start > 0 ? '…' : '') + text.slice(start, at + 100) + '…';
  }

  function highlight(el, text, terms) {
    var lower = text.toLowerCase(), pos = 0;
    while (pos < text.length) {
      var next = -1, len = 0;
      for (var i = 0; i < terms.length; i++) {
        var at = lower.indexOf(terms[i], pos);
        if (at >= 0 && (next < 0 || at < next)) { next = at; len = terms[i].length; }
      }
      if (next < 0) { el.appendChild(doc.createTextNode(text.slice(pos))); break; }
      if (next > pos) el.appendChild(doc.createTextNode(text.slice(pos, next)));
      var mark = doc.createElement('mark');
      mark.textContent = text.slice(next, next + len);
      el.appendChild(mark);
      pos = next + len;
    }
  }

  function select(i) {
    var items = list.querySelectorAll('[role="option"]');
    if (!items.length) { active = -1; input.removeAttribute('aria-activedescendant'); return; }
    active = (i + items.length) % items.length;
    for (var k = 0; k < items.length; k++) items[k].setAttribute('aria-selected', k === active ? 'true' : 'false');
    input.setAttribute('aria-activedescendant', items[active].id);
    if (items[active].scrollIntoView) items[active].scrollIntoView({ block: 'nearest' });
  }

  function render() {
    var q = input.value;
    list.textContent = '';
    active = -1;
    if (!q.trim()) { status.textContent = uiString('searchPrompt', 'Type to search the documentation.'); input.setAttribute('aria-expanded', 'false'); return; }
    var results = search(q);
    var terms = tokens(q);
    status.textContent = results.length
      ? uiString(results.length === 1 ? 'oneResult' : 'manyResults', results.length === 1 ? '{n} result' : '{n} results').replace('{n}', String(results.length))
      : uiString('noResults', 'No results for “{q}”.').replace('{q}', function () { return q; });
    input.setAttribute('aria-expanded', results.length ? 'true' : 'false');
    results.forEach(function (r, i) {
      var li = doc.createElement('li');
      li.id = 'enclave-search-option-' + i;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      var a = doc.createElement('a');
      a.href = siteRoot + r.path + '.html' + (r.section ? '#' + encodeURIComponent(r.section.id) : '');
      a.tabIndex = -1;
      var t = doc.createElement('span');
      t.className = 'enclave-result-title';
      highlight(t, r.title, terms);
      if (r.section) {
        var sec = doc.createElement('span');
        sec.className = 'enclave-result-section';
        highlight(sec, ' › ' + r.section.title, terms);
        t.appendChild(sec);
      }
      var s = doc.createElement('span');
      s.className = 'enclave-result-snippet';
      highlight(s, r.snippet, terms);
      a.appendChild(t);
      a.appendChild(s);
      li.appendChild(a);
      li.addEventListener('mousemove', function () { if (active !== i) select(i); });
      list.appendChild(li);
    });
    if (results.length) select(0);
  }

  /* Search analytics. The Enclave appliance serving this site says in its X-Enclave-Site response
     header whether it collects search events; from file:// or any other web server there is no
     such header, so nothing is sent and nothing fails. One beacon per settled query, one per
     result opened. */
  var beaconUrl = null;
  var probed = false;
  var settleTimer = null;
  var reported = '';
  function probeBeacon() {
    if (probed) return;
    probed = true;
    if (!/^https?:$/.test(location.protocol) || !navigator.sendBeacon || typeof fetch !== 'function') return;
    fetch(location.href, { method: 'HEAD', credentials: 'omit', cache: 'no-store' }).then(function (res) {
      var mark = res.headers.get('X-Enclave-Site') || '';
      if (mark.split(/\s+/).indexOf('search-events') >= 0) beaconUrl = new URL('/_enclave/search-events', location.href).href;
    }).catch(function () { /* not served by Enclave */ });
  }
  function beacon(event) {
    if (!beaconUrl) return;
    try { navigator.sendBeacon(beaconUrl, new Blob([JSON.stringify(event)], { type: 'application/json' })); } catch (e) { /* never break search */ }
  }
  function reportSearch() {
    if (settleTimer) { clearTimeout(settleTimer); settleTimer = null; }
    var q = input.value.replace(/\s+/g, ' ').trim();
    if (!q || q === reported) return;
    reported = q;
    beacon({ type: 'search', query: q.slice(0, 200), results: list.querySelectorAll('[role="option"]').length });
  }
  function settle() {
    if (settleTimer) clearTimeout(settleTimer);
    settleTimer = setTimeout(reportSearch, 800);
  }
  function reportClick(href) {
    reportSearch();
    var path = new URL(href, location.href).pathname.replace(/\.html$/, '').replace(/\/index$/, '/');
    if (path.length > 1 && path.charAt(path.length - 1) === '/') path = path.slice(0, -1);
    if (reported) beacon({ type: 'click', query: reported.slice(0, 200), path: path || '/' });
  }

  function open() {
    if (!dialog) return;
    probeBeacon();
    lastFocus = doc.activeElement;
    dialog.hidden = false;
    input.focus();
    input.select();
    loadIndex(render);
  }
  function close() {
    if (!dialog || dialog.hidden) return;
    dialog.hidden = true;
    var back = /** @type {HTMLElement | null} */ (lastFocus);
    if (back && back.focus) back.focus();
  }

  for (var o = 0; o < openers.length; o++) openers[o].addEventListener('click', open);
  if (dialog) {
    dialog.addEventListener('click', function (e) { if (e.target === dialog) close(); });
    input.addEventListener('input', function () { loadIndex(render); settle(); });
    list.addEventListener('click', function (e) {
      var target = /** @type {Element} */ (e.target);
      var a = target && target.closest ? target.closest('a') : null;
      if (a) reportClick(a.href);
    });
    input.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowDown') { e.preventDefault(); select(active + 1); }
      else if (e.key === 'ArrowUp') { e.preventDefault(); select(active - 1); }
      else if (e.key === 'Enter') {
        var items = /** @type {NodeListOf<HTMLAnchorElement>} */ (list.querySelectorAll('[role="option"] a'));
        if (items[active]) { e.preventDefault(); reportClick(items[active].href); window.location.href = items[active].href; }
      } else if (e.key === 'Tab') { e.preventDefault(); }
    });
  }
  doc.addEventListener('keydown', function (e) {
    var target = /** @type {HTMLElement} */ (e.target);
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test((target && target.tagName) || '') || (target && target.isContentEditable);
    if ((e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey)) { e.preventDefault(); if (dialog && dialog.hidden) open(); else close(); }
    else if (e.key === '/' && !typing && dialog && dialog.hidden) { e.preventDefault(); open(); }
    else if (e.key === 'Escape') { if (dialog && !dialog.hidden) close(); else if (doc.body.classList.contains('enclave-nav-open')) { setMenu(false); if (menu) /** @type {HTMLElement} */ (menu).focus(); } }
  });
})();
