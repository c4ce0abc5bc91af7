// @ts-check
/* Enclave islands: runs the docs' own React components that need a browser (state, effects,
   event handlers). Each page registers its components' compiled modules in
   window.__enclaveIslandModules; this script, loaded after Preact and its hooks (both shipped in
   the bundle), renders every <enclave-island> over its static first render. A classic script:
   it works from file:// and loads nothing from anywhere. */
(function () {
  'use strict';
  var w = /** @type {any} */ (window);
  var P = w.preact;
  var H = w.preactHooks;
  var factories = w.__enclaveIslandModules || {};
  if (!P || !H) return;

  /** Markup rendered at build time (children, JSX props), shown as it is. */
  function Markup(props) {
    return P.h('enclave-markup', { style: 'display:contents', dangerouslySetInnerHTML: { __html: props.html } });
  }
  var React = Object.assign({}, H, {
    createElement: P.h,
    h: P.h,
    Fragment: P.Fragment,
    Component: P.Component,
    createContext: P.createContext,
    createRef: P.createRef,
    cloneElement: P.cloneElement,
    isValidElement: P.isValidElement,
    memo: function (c) { return c; },
    forwardRef: function (fn) { return function (props) { return fn(props, props.ref); }; },
  });
  React['default'] = React;

  var loaded = {};
  function load(file) {
    if (Object.prototype.hasOwnProperty.call(loaded, file)) return loaded[file];
    var factory = factories[file];
    // A module left out at build time (it imports a package) has no bindings here.
    if (typeof factory !== 'function') return {};
    loaded[file] = {};
    loaded[file] = factory(React, P.h, P.Fragment, load);
    return loaded[file];
  }

  var islands = document.querySelectorAll('enclave-island');
  for (var i = 0; i < islands.length; i++) {
    var el = /** @type {HTMLElement} */ (islands[i]);
    // An island inside another is rendered by the outer one's component.
    if (el.parentElement && el.parentElement.closest('enclave-island')) continue;
    try {
      var props = JSON.parse(el.getAttribute('data-props') || '{}');
      var templates = el.querySelectorAll(':scope > template');
      for (var j = 0; j < templates.length; j++) {
        var t = /** @type {HTMLTemplateElement} */ (templates[j]);
        var html = P.h(Markup, { html: t.innerHTML });
        if (t.hasAttribute('data-enclave-children')) props.children = html;
        else props[t.getAttribute('data-enclave-prop') || ''] = html;
        t.remove();
      }
      var component = load(el.getAttribute('data-module') || '')[el.getAttribute('data-name') || ''];
      if (typeof component !== 'function') throw new Error('component ' + el.getAttribute('data-name') + ' not found');
      P.render(P.h(component, props), el);
      el.setAttribute('data-hydrated', '');
    } catch (err) {
      // The static render stays; the reason is on the element for whoever inspects the page.
      el.setAttribute('data-island-error', String((err && err.message) || err));
    }
  }
})();
