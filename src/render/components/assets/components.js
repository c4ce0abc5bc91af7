// @ts-check
// size: shipped to browsers as one script (no bundler): every component's behaviour on the page
/* Enclave component behaviour: tabs and code groups (synced across the page and remembered),
   copy buttons, tooltips, expandable code, the view switcher and Mermaid diagrams.
   A classic script with no imports so it also works when the bundle is opened from file://.
   Everything degrades: without this script the first tab, the full code and the diagram source show. */
(function () {
  'use strict';

  var STORE_PREFIX = 'enclave:';

  /**
   * The element matching `selector` that an event happened in, if any.
   * @param {Event} event
   * @param {string} selector
   * @returns {Element | null}
   */
  function eventClosest(event, selector) {
    var target = /** @type {Element} */ (event.target);
    return target.closest ? target.closest(selector) : null;
  }

  // Storage can be missing or throw (private mode, file:// in some browsers): treat it as optional.
  function load(key) {
    try { return window.localStorage.getItem(STORE_PREFIX + key); } catch (e) { return null; }
  }
  function save(key, value) {
    try { window.localStorage.setItem(STORE_PREFIX + key, value); } catch (e) { /* not persisted */ }
  }

  var liveRegion = null;
  /** Announces a short status (e.g. "Copied") to screen readers. */
  /** Interface text in the page's language (theme.js reads it), else the English given. */
  function uiString(key, english) { return window.__enclaveText ? window.__enclaveText(key, english) : english; }

  function announce(text) {
    if (!liveRegion) {
      liveRegion = document.createElement('div');
      liveRegion.setAttribute('aria-live', 'polite');
      liveRegion.setAttribute('role', 'status');
      liveRegion.style.cssText = 'position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap';
      document.body.appendChild(liveRegion);
    }
    liveRegion.textContent = '';
    setTimeout(function () { liveRegion.textContent = text; }, 30);
  }

  /* ---- Tabs ---------------------------------------------------------------------- */

  function directChildren(el, selector) {
    var out = [];
    for (var i = 0; i < el.children.length; i++) if (el.children[i].matches(selector)) out.push(el.children[i]);
    return out;
  }
  function tabsOf(group) {
    var list = directChildren(group, '[role="tablist"]')[0];
    return list ? directChildren(list, '[role="tab"]') : [];
  }
  function panelsOf(group) {
    return directChildren(group, '[role="tabpanel"]');
  }

  /** Shows panel `index` of one tab group; returns false when the group has no such tab. */
  function selectIndex(group, index, focus) {
    var panels = panelsOf(group);
    if (index < 0 || index >= panels.length) return false;
    var tabs = tabsOf(group);
    for (var i = 0; i < panels.length; i++) {
      var on = i === index;
      panels[i].hidden = !on;
      if (tabs[i]) {
        tabs[i].setAttribute('aria-selected', on ? 'true' : 'false');
        tabs[i].tabIndex = on ? 0 : -1;
      }
    }
    var select = directChildren(group, 'select[data-enclave-tabs-select]')[0];
    if (select) select.value = String(index);
    if (focus && tabs[index]) tabs[index].focus();
    return true;
  }

  function labelIndex(group, label) {
    var panels = panelsOf(group);
    for (var i = 0; i < panels.length; i++) if (panels[i].getAttribute('data-label') === label) return i;
    return -1;
  }

  /** Selects a label in every group of the same sync family on the page, and remembers it. */
  function selectLabel(origin, label) {
    var sync = origin.getAttribute('data-sync');
    if (!sync) return;
    var groups = document.querySelectorAll('[data-enclave-tabs][data-sync="' + sync + '"]');
    for (var i = 0; i < groups.length; i++) {
      if (groups[i] === origin) continue;
      var index = labelIndex(groups[i], label);
      if (index >= 0) selectIndex(groups[i], index, false);
    }
    save('tab:' + sync, label);
  }

  function choose(group, index, focus) {
    if (!selectIndex(group, index, focus)) return;
    var panel = panelsOf(group)[index];
    if (panel) selectLabel(group, panel.getAttribute('data-label'));
  }

  function initTabs() {
    var groups = document.querySelectorAll('[data-enclave-tabs]');
    for (var i = 0; i < groups.length; i++) {
      var sync = groups[i].getAttribute('data-sync');
      var remembered = sync ? load('tab:' + sync) : null;
      if (remembered) {
        var index = labelIndex(groups[i], remembered);
        if (index > 0) selectIndex(groups[i], index, false);
      }
    }
  }

  document.addEventListener('click', function (event) {
    var tab = eventClosest(event, '[role="tab"]');
    if (!tab) return;
    var group = tab.closest('[data-enclave-tabs]');
    if (!group) return;
    choose(group, tabsOf(group).indexOf(tab), false);
  });

  document.addEventListener('keydown', function (event) {
    var tab = eventClosest(event, '[role="tab"]');
    if (!tab) return;
    var group = tab.closest('[data-enclave-tabs]');
    if (!group) return;
    var tabs = tabsOf(group);
    var current = tabs.indexOf(tab);
    var next = -1;
    if (event.key === 'ArrowRight') next = (current + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (current - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    event.preventDefault();
    choose(group, next, true);
  });

  document.addEventListener('change', function (event) {
    var select = /** @type {HTMLSelectElement} */ (event.target);
    if (!select.matches || !select.matches('select[data-enclave-tabs-select]')) return;
    var group = select.closest('[data-enclave-tabs]');
    if (group) choose(group, Number(select.value), false);
  });

  /* ---- Copy ---------------------------------------------------------------------- */

  /** The old selection-based copy, for pages where the async clipboard API is missing or refused. */
  function copyWithSelection(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.cssText = 'position:fixed;top:-1000px;opacity:0';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error('copy failed'));
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(null, function () { return copyWithSelection(text); });
    }
    return copyWithSelection(text);
  }
  // Shared with the Ask AI panel (askAi.js), whose answers copy the same way over plain http.
  window.__enclaveCopyText = copyText;

  function textToCopy(button) {
    if (button.hasAttribute('data-enclave-copy-text')) return button.getAttribute('data-enclave-copy-text');
    var figure = button.closest('[data-enclave-code]');
    if (figure) {
      var code = figure.querySelector('pre code');
      return code ? code.textContent : '';
    }
    var prompt = button.closest('[data-enclave-prompt]');
    if (prompt) {
      var source = prompt.querySelector('[data-enclave-copy-source]');
      return source ? source.innerText.trim() : '';
    }
    return '';
  }

  document.addEventListener('click', function (event) {
    var button = eventClosest(event, '[data-enclave-copy], [data-enclave-copy-text]');
    if (!button) return;
    copyText(textToCopy(button)).then(function () {
      button.setAttribute('data-copied', '');
      announce(uiString('copied', 'Copied to clipboard'));
      setTimeout(function () { button.removeAttribute('data-copied'); }, 1500);
    }, function () {
      announce(uiString('copyFailed', 'Copy failed'));
    });
  });

  /* ---- Expandable code ------------------------------------------------------------ */

  document.addEventListener('click', function (event) {
    var button = eventClosest(event, '[data-enclave-expand]');
    if (!button) return;
    var figure = button.closest('[data-enclave-code]');
    if (!figure) return;
    if (!button.hasAttribute('data-label')) button.setAttribute('data-label', button.textContent);
    var collapsed = figure.classList.toggle('collapsed');
    button.setAttribute('aria-expanded', collapsed ? 'false' : 'true');
    button.textContent = collapsed ? button.getAttribute('data-label') : 'Show less';
  });

  /* ---- Tooltips ------------------------------------------------------------------- */

  // Escape hides an open tooltip (WCAG 1.4.13) until the pointer or focus leaves it.
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Escape') return;
    var open = document.querySelectorAll('[data-enclave-tooltip]:hover, [data-enclave-tooltip]:focus-within');
    for (var i = 0; i < open.length; i++) open[i].classList.add('dismissed');
  });
  function undismiss(event) {
    var tip = event.target.closest && event.target.closest('[data-enclave-tooltip]');
    if (tip) tip.classList.remove('dismissed');
  }
  document.addEventListener('mouseout', undismiss);
  document.addEventListener('focusout', undismiss);

  /* ---- Views ---------------------------------------------------------------------- */

  function initViews() {
    var views = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-enclave-view]'));
    if (views.length === 0) return;
    var titles = [];
    for (var i = 0; i < views.length; i++) {
      var t = views[i].getAttribute('data-title');
      if (titles.indexOf(t) < 0) titles.push(t);
    }
    var wrapper = document.createElement('div');
    wrapper.className = 'enclave-view-switcher';
    var label = document.createElement('label');
    var id = 'enclave-view-select';
    label.setAttribute('for', id);
    label.textContent = 'View';
    var select = document.createElement('select');
    select.id = id;
    for (var j = 0; j < titles.length; j++) {
      var option = document.createElement('option');
      option.value = titles[j];
      option.textContent = titles[j];
      select.appendChild(option);
    }
    wrapper.appendChild(label);
    wrapper.appendChild(select);
    views[0].parentNode.insertBefore(wrapper, views[0]);
    function show(title) {
      for (var k = 0; k < views.length; k++) views[k].hidden = views[k].getAttribute('data-title') !== title;
      select.value = title;
    }
    var remembered = load('view');
    show(remembered && titles.indexOf(remembered) >= 0 ? remembered : titles[0]);
    select.addEventListener('change', function () {
      show(select.value);
      save('view', select.value);
    });
  }

  /* ---- Accordions opened by the URL hash ------------------------------------------ */

  function openHashTarget() {
    if (!location.hash) return;
    var target;
    try { target = document.getElementById(decodeURIComponent(location.hash.slice(1))); } catch (e) { return; }
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === 'DETAILS') /** @type {HTMLDetailsElement} */ (node).open = true;
    }
  }
  window.addEventListener('hashchange', openHashTarget);

  /* ---- Mermaid -------------------------------------------------------------------- */

  var mermaidRun = 0;
  function isDark() {
    return document.documentElement.getAttribute('data-theme') === 'dark';
  }
  /** Renders every diagram with the current colour theme; re-run when the theme flips. */
  function renderDiagrams() {
    var mermaid = window.mermaid;
    var figures = document.querySelectorAll('[data-enclave-mermaid]');
    if (!mermaid || figures.length === 0) return;
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: isDark() ? 'dark' : 'default' });
    var run = ++mermaidRun;
    for (var i = 0; i < figures.length; i++) {
      (function (figure, n) {
        var source = figure.querySelector('.enclave-mermaid-source');
        if (!source) return;
        var id = 'enclave-mermaid-' + run + '-' + n;
        Promise.resolve(mermaid.render(id, source.textContent)).then(function (result) {
          if (run !== mermaidRun) return; // a newer theme render superseded this one
          var old = figure.querySelector('.enclave-mermaid-svg');
          if (old) figure.removeChild(old);
          var holder = document.createElement('div');
          holder.className = 'enclave-mermaid-svg';
          holder.innerHTML = result.svg;
          figure.appendChild(holder);
          figure.setAttribute('data-rendered', '');
          enableZoom(figure, holder);
        }, function () {
          // Leave the source visible: a broken diagram still reads as text.
          figure.removeAttribute('data-rendered');
        });
      })(figures[i], i);
    }
  }

  /** Zoom (buttons, Ctrl/⌘ + wheel) and pan (drag) for a rendered diagram; the view resets on a re-render. */
  function enableZoom(figure, holder) {
    var svg = holder.querySelector('svg');
    if (!svg) return;
    var view = { scale: 1, x: 0, y: 0 };
    var apply = function () {
      svg.style.transform = 'translate(' + view.x + 'px,' + view.y + 'px) scale(' + view.scale + ')';
      figure.setAttribute('data-zoom', String(Math.round(view.scale * 100)));
      holder.classList.toggle('enclave-mermaid-zoomed', view.scale !== 1 || view.x !== 0 || view.y !== 0);
    };
    var zoom = function (factor) {
      view.scale = Math.min(8, Math.max(0.25, view.scale * factor));
      apply();
    };
    var old = figure.querySelector('.enclave-mermaid-controls');
    if (old) figure.removeChild(old);
    var controls = document.createElement('div');
    controls.className = 'enclave-mermaid-controls';
    /** @type {[string, string, () => void][]} */ ([['+', 'Zoom in', function () { zoom(1.25); }], ['\u2212', 'Zoom out', function () { zoom(0.8); }], ['\u21BA', 'Reset view', function () { view = { scale: 1, x: 0, y: 0 }; apply(); }]]).forEach(function (spec) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = spec[0];
      button.setAttribute('aria-label', spec[1]);
      button.title = spec[1];
      button.addEventListener('click', spec[2]);
      controls.appendChild(button);
    });
    figure.insertBefore(controls, figure.firstChild);
    holder.addEventListener('wheel', function (e) {
      // Plain wheel scrolls the page as usual; with Ctrl/⌘ it zooms the diagram.
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      zoom(e.deltaY < 0 ? 1.1 : 0.9);
    }, { passive: false });
    var drag = null;
    holder.addEventListener('pointerdown', function (e) {
      drag = { x: e.clientX - view.x, y: e.clientY - view.y };
      holder.setPointerCapture(e.pointerId);
      holder.classList.add('enclave-mermaid-dragging');
    });
    holder.addEventListener('pointermove', function (e) {
      if (!drag) return;
      view.x = e.clientX - drag.x;
      view.y = e.clientY - drag.y;
      apply();
    });
    var stop = function () {
      drag = null;
      holder.classList.remove('enclave-mermaid-dragging');
    };
    holder.addEventListener('pointerup', stop);
    holder.addEventListener('pointercancel', stop);
  }

  function initMermaid() {
    if (!window.mermaid || !document.querySelector('[data-enclave-mermaid]')) return;
    renderDiagrams();
    var lastDark = isDark();
    new MutationObserver(function () {
      if (isDark() === lastDark) return;
      lastDark = isDark();
      renderDiagrams();
    }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  }

  function init() {
    initTabs();
    initViews();
    openHashTarget();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
  // The mermaid script may be included after this one: wait for every script to have run.
  if (document.readyState === 'complete') initMermaid();
  else window.addEventListener('load', initMermaid);
})();
