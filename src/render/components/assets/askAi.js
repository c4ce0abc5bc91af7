// @ts-check
// size: one classic browser script served as written (no build step): the probe, the panel, the stream reader and a small Markdown renderer
/* Enclave "Ask AI" panel: a button next to search (and Ctrl/Cmd+I) opening a panel that asks
 * the appliance serving this page, streams the answer as Markdown with links to the cited
 * sections, and offers copy, rating and follow-ups in the same thread. Like the feedback
 * widget it shows itself only where an Enclave appliance serves the page (X-Enclave-Site on a
 * same-origin HEAD of the page) and says answers are on (/_enclave/assistant); on file:// or
 * any other host nothing appears and nothing else is requested. */
(function () {
  'use strict';

  if (location.protocol !== 'http:' && location.protocol !== 'https:') return;

  function uiString(key, english) { return window.__enclaveText ? window.__enclaveText(key, english) : english; }

  // The element builder, the page's path and the "served by Enclave" probe are feedback.js's
  // (on every page; it has run by the time this script starts, on DOMContentLoaded).
  function el(tag, attrs, children) { return window.__enclaveEl(tag, attrs, children); }
  function pagePath() { return window.__enclavePagePath(); }

  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; });
  }

  /** Same-site links only (a path or #anchor): an answer cannot send the reader elsewhere. */
  function safeHref(url) { return /^(\/(?!\/)|#)/.test(url) ? url : null; }

  function inline(text, sources) {
    var html = escapeHtml(text);
    html = html.replace(/`([^`]+)`/g, '<code>$1</code>');
    html = html.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
    html = html.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, function (all, label, url) {
      var href = safeHref(url.replace(/&amp;/g, '&'));
      return href ? '<a href="' + escapeHtml(href) + '">' + label + '</a>' : label;
    });
    return html.replace(/\[(\d{1,3})\]/g, function (all, n) {
      var source = sources[Number(n) - 1];
      var href = source && safeHref(source.url);
      return href ? '<a class="enclave-ask-cite" href="' + escapeHtml(href) + '">[' + n + ']</a>' : all;
    });
  }

  /** A small Markdown subset: fenced code, paragraphs, lists, inline code, bold, links, [n]. */
  function renderMarkdown(text, sources) {
    var out = [];
    var parts = text.split(/^```[^\n]*\n?/m);
    parts.forEach(function (part, i) {
      if (i % 2 === 1) { out.push('<pre><code>' + escapeHtml(part.replace(/\n$/, '')) + '</code></pre>'); return; }
      part.split(/\n{2,}/).forEach(function (block) {
        if (!block.trim()) return;
        var lines = block.split('\n');
        if (lines.every(function (l) { return /^\s*([-*]|\d+\.)\s+/.test(l); })) {
          out.push('<ul>' + lines.map(function (l) { return '<li>' + inline(l.replace(/^\s*([-*]|\d+\.)\s+/, ''), sources) + '</li>'; }).join('') + '</ul>');
        } else out.push('<p>' + inline(block, sources).replace(/\n/g, '<br>') + '</p>');
      });
    });
    return out.join('');
  }

  /** Reads an AI SDK 5 UI message stream (server-sent events), calling `onChunk` per event. */
  function readEvents(response, onChunk) {
    var reader = response.body.getReader();
    var decoder = new TextDecoder();
    var buffered = '';
    function pump() {
      return reader.read().then(function (step) {
        if (step.done) return;
        buffered += decoder.decode(step.value, { stream: true });
        var cut;
        while ((cut = buffered.indexOf('\n\n')) >= 0) {
          var event = buffered.slice(0, cut);
          buffered = buffered.slice(cut + 2);
          var data = event.replace(/^data: ?/, '');
          if (data && data !== '[DONE]') {
            try { onChunk(JSON.parse(data)); } catch (e) { /* a malformed event is skipped */ }
          }
        }
        return pump();
      });
    }
    return pump();
  }

  // size: the panel's elements and handlers share one closure's state (thread id, history, busy), read top to bottom
  function mount() {
    var fp = 'web-' + Math.random().toString(36).slice(2) + Date.now().toString(36);
    var threadId = null;
    var history = [];
    var busy = false;
    var button = el('button', { type: 'button', class: 'enclave-ask-button', 'aria-haspopup': 'dialog', 'aria-controls': 'enclave-ask', 'aria-keyshortcuts': 'Control+I Meta+I' }, [
      el('span', { text: uiString('askAi', 'Ask AI') }), el('kbd', { text: /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘I' : 'Ctrl I' })]);
    var log = el('div', { class: 'enclave-ask-log', role: 'log', 'aria-live': 'polite' });
    var input = /** @type {HTMLTextAreaElement} */ (el('textarea', { rows: 2, 'aria-label': uiString('askQuestion', 'Your question'), placeholder: uiString('askPlaceholder', 'Ask a question about these docs') }));
    var send = el('button', { type: 'submit', text: uiString('askSend', 'Ask') });
    var close = el('button', { type: 'button', 'aria-label': uiString('close', 'Close'), text: '✕' });
    var form = el('form', { class: 'enclave-ask-form' }, [input, send]);
    var dialog = el('div', { id: 'enclave-ask', class: 'enclave-ask', role: 'dialog', 'aria-modal': 'true', 'aria-label': uiString('askAi', 'Ask AI'), hidden: true }, [
      el('div', { class: 'enclave-ask-panel' }, [el('div', { class: 'enclave-ask-head' }, [el('h2', { text: uiString('askAi', 'Ask AI') }), close]), log, form])]);
    var search = document.querySelector('.enclave-search-button');
    if (search && search.parentNode) search.parentNode.insertBefore(button, search.nextSibling);
    else document.body.appendChild(button);
    document.body.appendChild(dialog);

    function open() { dialog.hidden = false; input.focus(); }
    function shut() { dialog.hidden = true; button.focus(); }
    button.addEventListener('click', open);
    close.addEventListener('click', shut);
    dialog.addEventListener('click', function (e) { if (e.target === dialog) shut(); });
    document.addEventListener('keydown', function (e) {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 'i' || e.key === 'I')) { e.preventDefault(); if (dialog.hidden) open(); else shut(); }
      else if (e.key === 'Escape' && !dialog.hidden) shut();
    });
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); }
    });
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var question = input.value.trim();
      if (!question || busy) return;
      input.value = '';
      ask(question);
    });

    function ask(question) {
      busy = true;
      log.appendChild(el('div', { class: 'enclave-ask-q', text: question }));
      var body = el('div', { class: 'enclave-ask-body' });
      var answer = el('div', { class: 'enclave-ask-a', 'aria-busy': 'true' }, [body]);
      log.appendChild(answer);
      var text = '';
      var sources = [];
      var failed = null;
      var messages = history.concat([{ role: 'user', content: question }]);
      var payload = { fp: fp, messages: messages, currentPath: pagePath() };
      if (threadId) payload.threadId = threadId;
      fetch('/_enclave/assistant/message', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) })
        .then(function (res) {
          if (!res.ok) return res.json().then(function (b) { failed = (b && b.error) || 'The question could not be asked'; });
          return readEvents(res, function (chunk) {
            if (chunk.type === 'start' && chunk.messageMetadata) threadId = chunk.messageMetadata.threadId || threadId;
            else if (chunk.type === 'text-delta') { text += chunk.delta; body.innerHTML = renderMarkdown(text, sources); log.scrollTop = log.scrollHeight; }
            else if (chunk.type === 'source-url') sources.push({ url: chunk.url, title: chunk.title || chunk.url });
            else if (chunk.type === 'error') failed = chunk.errorText;
          });
        })
        .catch(function () { failed = failed || 'The appliance could not be reached'; })
        .then(function () {
          busy = false;
          answer.removeAttribute('aria-busy');
          body.innerHTML = renderMarkdown(text, sources);
          if (failed) answer.appendChild(el('p', { class: 'enclave-ask-error', role: 'alert', text: failed }));
          if (sources.length) {
            answer.appendChild(el('ol', { class: 'enclave-ask-sources', 'aria-label': uiString('askSources', 'Sources') }, sources.map(function (s) {
              var href = safeHref(s.url);
              return el('li', {}, [href ? el('a', { href: href, text: s.title }) : el('span', { text: s.title })]);
            })));
          }
          if (text && !failed) {
            // The panel's endpoint takes small bodies (the public 16 KiB cap): recent turns only, long answers cut.
            history = messages.concat([{ role: 'assistant', content: text.slice(0, 1500) }]).slice(-6);
            answer.appendChild(actions(text));
          }
          input.focus();
        });
    }

    function actions(text) {
      var copy = el('button', { type: 'button', text: uiString('copy', 'Copy') });
      copy.addEventListener('click', function () {
        var done = function () { copy.textContent = uiString('copied', 'Copied'); };
        // components.js copies with the clipboard API where the page is a secure context and
        // by selection elsewhere (an intranet site on plain http has no navigator.clipboard).
        if (window.__enclaveCopyText) window.__enclaveCopyText(text).then(done, function () {});
      });
      var rate = function (helpful, label, mark) {
        var b = el('button', { type: 'button', 'aria-label': label, 'aria-pressed': 'false', text: mark });
        b.addEventListener('click', function () {
          b.setAttribute('aria-pressed', 'true');
          fetch('/_enclave/feedback', { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ source: 'agent', path: pagePath(), helpful: helpful, comment: 'Ask AI answer, thread ' + threadId }) }).catch(function () {});
        });
        return b;
      };
      return el('div', { class: 'enclave-ask-actions' }, [copy, rate(true, uiString('askHelpful', 'Helpful answer'), '👍'), rate(false, uiString('askNotHelpful', 'Not helpful'), '👎')]);
    }
  }

  function start() {
    if (!window.__enclaveWhenServed) return;
    window.__enclaveWhenServed(function () {
      fetch('/_enclave/assistant', { credentials: 'same-origin', cache: 'no-store' })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (state) { if (state && state.enabled) mount(); })
        .catch(function () { /* offline or blocked: stay hidden */ });
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
