// @ts-check
/* Enclave API playground: sends the "Try it" form of an API page from the reader's browser to the
   server URL the reader chose, and shows the answer. A classic script, no dependencies; it never
   contacts anything but that URL. Pages opened from file:// can't send (browsers block it): the
   form says so instead. */
(function () {
  'use strict';
  var doc = document;
  var STORE = 'enclave-try-server';
  var fromFile = window.location.protocol === 'file:';

  function remembered() {
    try { return window.localStorage.getItem(STORE) || ''; } catch (e) { return ''; }
  }
  function remember(value) {
    try { window.localStorage.setItem(STORE, value); } catch (e) { /* storage may be disabled */ }
  }

  function pretty(text, type) {
    if (!/json/i.test(type || '')) return text;
    try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; }
  }

  // size: wires one playground form (inputs, send, response view) in the order the reader sees it; a browser script with no bundler
  function setup(box) {
    var form = box.querySelector('form');
    var server = box.querySelector('[data-try-server]');
    var send = box.querySelector('.enclave-try-send');
    var out = box.querySelector('.enclave-try-response');
    var status = box.querySelector('.enclave-try-status');
    var code = box.querySelector('.enclave-try-output code');
    if (!form || !server || !send || !out) return;
    var saved = remembered();
    if (saved) server.value = saved;

    if (fromFile) {
      var note = doc.createElement('p');
      note.className = 'enclave-try-file';
      note.setAttribute('role', 'note');
      note.textContent = box.getAttribute('data-file-notice') || 'Requests cannot be sent from a page opened as a file.';
      form.insertBefore(note, form.firstChild);
      send.disabled = true;
      return;
    }

    function show(line, body, failed) {
      out.hidden = false;
      out.classList.toggle('enclave-try-failed', !!failed);
      status.textContent = line;
      code.textContent = body || '';
    }

    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var base = server.value.trim().replace(/\/+$/, '');
      var parsed = null;
      try { parsed = new URL(base); } catch (err) { parsed = null; }
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
        show('Enter the server to send to, as an http:// or https:// URL.', '', true);
        server.focus();
        return;
      }
      remember(base);
      var path = box.getAttribute('data-path') || '/';
      var query = [];
      /** @type {Record<string, string>} */
      var headers = {};
      var missing = [];
      var inputs = form.querySelectorAll('[data-try-in]');
      for (var i = 0; i < inputs.length; i++) {
        var input = inputs[i], where = input.getAttribute('data-try-in'), name = input.getAttribute('data-try-name'), value = input.value;
        if (value === '') { if (input.required) missing.push(name); continue; }
        if (where === 'path') path = path.split('{' + name + '}').join(encodeURIComponent(value));
        else if (where === 'query') query.push(encodeURIComponent(name) + '=' + encodeURIComponent(value));
        else headers[name] = value;
      }
      if (missing.length) { show('Fill in: ' + missing.join(', ') + '.', '', true); return; }
      /** @type {RequestInit & { method: string }} */
      var init = { method: box.getAttribute('data-method') || 'GET', headers: headers, credentials: 'omit', redirect: 'follow' };
      var body = form.querySelector('[data-try-body]');
      if (body && body.value.trim() !== '' && init.method !== 'GET' && init.method !== 'HEAD') {
        init.body = body.value;
        headers['Content-Type'] = body.getAttribute('data-media-type') || 'application/json';
      }
      var url = base + path + (query.length ? '?' + query.join('&') : '');
      var started = Date.now();
      send.disabled = true;
      show('Sending ' + init.method + ' ' + url + ' …', '');
      window.fetch(url, init).then(function (res) {
        return res.text().then(function (text) {
          var type = res.headers.get('content-type') || '';
          show(res.status + ' ' + res.statusText + ' · ' + (Date.now() - started) + ' ms' + (type ? ' · ' + type : ''), pretty(text, type), !res.ok);
        });
      }, function (err) {
        show('The request failed: ' + (err && err.message ? err.message : String(err)) + '. The server may be unreachable from this browser, or not allow requests from this page (CORS).', '', true);
      }).then(function () { send.disabled = false; });
    });
  }

  var boxes = doc.querySelectorAll('[data-enclave-try]');
  for (var i = 0; i < boxes.length; i++) setup(boxes[i]);
})();
