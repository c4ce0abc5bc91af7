// @ts-check
// size: one classic browser script served as written (no build step), the widget and its code-block button
/* Enclave reader feedback widget: "Was this page helpful?" after the page content and a
 * "Feedback" button on each code block. A classic script with no dependencies. It shows
 * itself only when an Enclave server answers (a health probe), so on file:// or a plain
 * static host the page looks exactly as if it weren't there; any failure stays silent. The
 * probe itself is only sent where the appliance marked the page (an `X-Enclave-Site` response
 * header, read from a HEAD of the page itself, which exists on any host) or where the export
 * named a feedback endpoint, so elsewhere nothing 404s and the console stays clean. */
(function () {
  'use strict';

  var MAX_CODE_BYTES = 8000; // keeps code + comment under the server's 16 KiB body limit
  var uid = 0;

  /** Interface text in the page's language (theme.js reads it), else the English given. */
  function uiString(key, english) { return window.__enclaveText ? window.__enclaveText(key, english) : english; }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === false || value == null) return;
      if (name === 'text') node.textContent = value;
      else node.setAttribute(name, value === true ? '' : String(value));
    });
    (children || []).forEach(function (child) {
      if (child) node.appendChild(child);
    });
    return node;
  }

  function nextId(prefix) {
    uid += 1;
    return 'enclave-fb-' + prefix + '-' + uid;
  }

  /** Extensionless page path: the page's own meta, else the canonical link, else the URL. */
  function pagePath() {
    var own = document.querySelector('meta[name="enclave-page"][content]');
    if (own && own.getAttribute('content').charAt(0) === '/') return own.getAttribute('content');
    var link = document.querySelector('link[rel="canonical"][href]');
    var path = location.pathname;
    if (link) {
      try {
        path = new URL(link.getAttribute('href'), location.href).pathname;
      } catch (e) {
        /* keep location.pathname */
      }
    }
    try {
      path = decodeURI(path);
    } catch (e) {
      /* keep it encoded */
    }
    path = path.replace(/\.html?$/i, '').replace(/\/index$/i, '/');
    if (path.length > 1) path = path.replace(/\/+$/, '');
    return path || '/';
  }

  function endpointUrl() {
    return new URL('/_enclave/feedback', location.href);
  }

  /* Calls `then` when the appliance serves this page: it marks site responses with
   * `X-Enclave-Site`. The page's own URL is asked, so no host ever answers 404 here. */
  function whenServedByEnclave(then) {
    fetch(location.href, { method: 'HEAD', credentials: 'same-origin', cache: 'no-store', mode: 'same-origin' })
      .then(function (res) {
        if (res.headers.get('x-enclave-site')) then();
      })
      .catch(function () {
        /* offline or blocked: stay hidden */
      });
  }

  // Shared with the Ask AI panel (askAi.js), so both agree on the page's path and on where
  // Enclave serves the page; it starts on DOMContentLoaded, after this script has run.
  window.__enclaveEl = el;
  window.__enclavePagePath = pagePath;
  window.__enclaveWhenServed = whenServedByEnclave;

  function trimToBytes(text, maxBytes) {
    if (typeof TextEncoder === 'undefined') return text.slice(0, maxBytes / 3);
    var encoder = new TextEncoder();
    for (var i = 0; i < 40 && encoder.encode(text).length > maxBytes; i++) text = text.slice(0, Math.floor(text.length * 0.9));
    return text;
  }

  function send(endpoint, body) {
    return fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    }).then(function (res) {
      if (res.status === 201) return;
      var reason = res.status === 429 ? uiString('tooMany', 'Too many messages from here; please try again in a minute.') : uiString('sendFailed', 'Sorry, your feedback could not be sent.');
      throw new Error(reason);
    });
  }

  function say(status, text, isError) {
    status.textContent = text;
    status.classList.toggle('is-error', !!isError);
  }

  /** Fills `host` (the page shell's placeholder, or a new section) with the page rating control. */
  // size: builds one form's DOM and its handlers in the order the reader sees them; a browser script with no bundler
  function pageControl(endpoint, path, host) {
    var titleId = nextId('title');
    var commentId = nextId('comment');
    var contactId = nextId('contact');
    var helpful = null;
    var yes = el('button', { type: 'button', class: 'enclave-feedback-choice', 'aria-pressed': 'false', 'data-helpful': 'true', text: uiString('yes', 'Yes') });
    var no = el('button', { type: 'button', class: 'enclave-feedback-choice', 'aria-pressed': 'false', 'data-helpful': 'false', text: uiString('no', 'No') });
    var comment = el('textarea', { id: commentId, name: 'comment', rows: 3, maxlength: 5000 });
    var contact = el('input', { id: contactId, name: 'contact', type: 'email', maxlength: 254, autocomplete: 'email', inputmode: 'email' });
    var sendButton = el('button', { type: 'submit', class: 'enclave-feedback-send', text: uiString('send', 'Send') });
    var form = el('form', { class: 'enclave-feedback-form', hidden: true, novalidate: false }, [
      el('label', { for: commentId, text: uiString('couldBeBetter', 'What could be better? (optional)') }),
      comment,
      el('label', { for: contactId, text: uiString('email', 'Your e-mail, if you would like a reply (optional)') }),
      contact,
      sendButton,
    ]);
    var status = el('p', { class: 'enclave-feedback-status', role: 'status', 'aria-live': 'polite' });
    var section = host || el('section', {});
    section.classList.add('enclave-feedback');
    section.setAttribute('data-enclave-feedback', '');
    if (!host || host.tagName !== 'SECTION') section.setAttribute('role', 'region');
    section.setAttribute('aria-labelledby', titleId);
    [
      el('p', { id: titleId, class: 'enclave-feedback-title', text: uiString('helpful', 'Was this page helpful?') }),
      el('div', { class: 'enclave-feedback-choices', role: 'group', 'aria-labelledby': titleId }, [yes, no]),
      form,
      status,
    ].forEach(function (child) {
      section.appendChild(child);
    });

    function choose(value) {
      helpful = value;
      yes.setAttribute('aria-pressed', String(value));
      no.setAttribute('aria-pressed', String(!value));
      comment.previousSibling.textContent = value ? uiString('anythingToAdd', 'Anything to add? (optional)') : uiString('couldBeBetter', 'What could be better? (optional)');
      form.hidden = false;
      say(status, '');
      comment.focus();
    }
    yes.addEventListener('click', function () {
      choose(true);
    });
    no.addEventListener('click', function () {
      choose(false);
    });
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (helpful === null) return;
      var body = { source: 'contextual', path: path, helpful: helpful };
      if (comment.value.trim()) body.comment = comment.value;
      if (contact.value.trim()) body.contact = contact.value.trim();
      sendButton.disabled = true;
      say(status, uiString('sending', 'Sending…'));
      send(endpoint, body).then(
        function () {
          form.hidden = true;
          yes.disabled = true;
          no.disabled = true;
          say(status, uiString('thanks', 'Thank you for your feedback!'));
        },
        function (err) {
          sendButton.disabled = false;
          say(status, err && err.message ? err.message : uiString('sendFailed', 'Sorry, your feedback could not be sent.'), true);
        },
      );
    });
    return section;
  }

  // size: builds one control's DOM and its handlers in the order the reader sees them; a browser script with no bundler
  function codeControl(endpoint, path, figure) {
    var pre = figure.querySelector('pre');
    if (!pre || figure.querySelector('.enclave-code-feedback-button')) return;
    var formId = nextId('code');
    var commentId = nextId('code-comment');
    var toggle = el('button', { type: 'button', class: 'enclave-code-feedback-button', 'aria-expanded': 'false', 'aria-controls': formId, text: uiString('codeFeedback', 'Feedback') });
    var comment = el('textarea', { id: commentId, name: 'comment', rows: 2, maxlength: 2000 });
    var sendButton = el('button', { type: 'submit', class: 'enclave-feedback-send', text: uiString('send', 'Send') });
    var cancel = el('button', { type: 'button', class: 'enclave-feedback-cancel', text: uiString('cancel', 'Cancel') });
    var status = el('p', { class: 'enclave-feedback-status', role: 'status', 'aria-live': 'polite' });
    var form = el('form', { id: formId, class: 'enclave-code-feedback', hidden: true }, [
      el('label', { for: commentId, text: uiString('codeWrong', 'What is wrong with this code? (optional)') }),
      comment,
      el('div', { class: 'enclave-feedback-actions' }, [sendButton, cancel]),
    ]);

    function setOpen(open) {
      form.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      if (open) comment.focus();
      else toggle.focus();
    }
    toggle.addEventListener('click', function () {
      setOpen(form.hidden);
    });
    cancel.addEventListener('click', function () {
      setOpen(false);
    });
    form.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') setOpen(false);
    });
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var body = { source: 'code_snippet', path: path, code: trimToBytes(pre.textContent || '', MAX_CODE_BYTES) };
      var filename = figure.getAttribute('data-filename');
      var lang = figure.getAttribute('data-lang');
      if (filename) body.filename = filename.slice(0, 255);
      if (lang) body.lang = lang.slice(0, 64);
      if (comment.value.trim()) body.comment = comment.value;
      if (!body.code) return;
      sendButton.disabled = true;
      say(status, uiString('sending', 'Sending…'));
      send(endpoint, body).then(
        function () {
          form.hidden = true;
          toggle.setAttribute('aria-expanded', 'false');
          toggle.disabled = true;
          toggle.textContent = uiString('thanksShort', 'Thanks!');
          say(status, uiString('codeThanks', 'Thank you for your feedback on this code.'));
        },
        function (err) {
          sendButton.disabled = false;
          say(status, err && err.message ? err.message : uiString('sendFailed', 'Sorry, your feedback could not be sent.'), true);
        },
      );
    });

    var header = figure.querySelector('.enclave-code-header');
    if (header) header.appendChild(toggle);
    else figure.insertBefore(toggle, figure.firstChild);
    figure.appendChild(form);
    figure.appendChild(status);
  }

  function contentRoot() {
    return (
      document.querySelector('.enclave-content') ||
      document.querySelector('[data-enclave-content]') ||
      document.querySelector('main article') ||
      document.querySelector('article') ||
      document.querySelector('main') ||
      document.body
    );
  }

  function mount(endpoint) {
    var root = document.documentElement;
    if (root.hasAttribute('data-enclave-feedback-ready')) return;
    root.setAttribute('data-enclave-feedback-ready', '');
    var path = pagePath();
    var figures = document.querySelectorAll('figure[data-enclave-code]');
    for (var i = 0; i < figures.length; i++) {
      try {
        codeControl(endpoint, path, figures[i]);
      } catch (e) {
        /* one odd block must not stop the others */
      }
    }
    var placeholder = document.getElementById('enclave-feedback');
    if (placeholder) {
      pageControl(endpoint, path, placeholder);
      return;
    }
    var container = contentRoot();
    if (container) container.appendChild(pageControl(endpoint, path, null));
  }

  function start() {
    try {
      if (location.protocol !== 'http:' && location.protocol !== 'https:') return;
      if (typeof fetch !== 'function' || typeof URL !== 'function') return;
      var endpoint = endpointUrl();
      var sameOrigin = endpoint.origin === location.origin;
      var probe = function () {
        // Only an Enclave server answers this probe; elsewhere the control never appears.
        fetch(new URL('/_enclave/health', endpoint).href, { credentials: 'omit', cache: 'no-store', mode: sameOrigin ? 'same-origin' : 'cors' })
          .then(function (res) {
            return res.ok ? res.json() : null;
          })
          .then(function (body) {
            if (body && body.status === 'ok') mount(endpoint.href);
          })
          .catch(function () {
            /* not served by Enclave: stay hidden */
          });
      };
      // Ask only where Enclave serves the page: other hosts would answer the probe 404.
      whenServedByEnclave(probe);
    } catch (e) {
      /* never break the page */
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
