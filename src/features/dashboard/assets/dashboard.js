/* Enclave admin dashboard: a static page over the admin API. The key is kept in sessionStorage
   (this tab only) and sent as a bearer header; it never appears in a URL. */
(function () {
  'use strict';
  var KEY_ITEM = 'enclave-admin-key';
  var doc = document;
  var $ = function (id) { return doc.getElementById(id); };
  var session = null; // { key, projectId, scope }
  var charts = {};

  function storedKey() { try { return sessionStorage.getItem(KEY_ITEM); } catch (e) { return null; } }
  function storeKey(key) { try { if (key) sessionStorage.setItem(KEY_ITEM, key); else sessionStorage.removeItem(KEY_ITEM); } catch (e) { /* storage off: this page load only */ } }

  function api(path, init) {
    init = init || {};
    var headers = { Authorization: 'Bearer ' + session.key };
    if (init.json !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(path, { method: init.method || 'GET', headers: headers, body: init.json === undefined ? undefined : JSON.stringify(init.json), cache: 'no-store', credentials: 'omit' })
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (body) {
          if (!res.ok) { var err = new Error(body.error || ('HTTP ' + res.status)); err.status = res.status; throw err; }
          return body;
        });
      });
  }
  function analytics(path) { return api('/v1/analytics/' + encodeURIComponent(session.projectId) + path); }

  function cell(row, text, numeric) {
    var td = doc.createElement('td');
    td.textContent = text === null || text === undefined ? '—' : String(text);
    if (numeric) td.className = 'num';
    row.appendChild(td);
    return td;
  }
  function fill(tableId, rows, build, emptyText) {
    var body = $(tableId).tBodies[0];
    body.textContent = '';
    if (!rows.length) {
      var tr = doc.createElement('tr');
      var td = cell(tr, emptyText || 'Nothing in this period.');
      td.colSpan = $(tableId).tHead.rows[0].cells.length;
      body.appendChild(tr);
      return;
    }
    rows.forEach(function (r) { var tr = doc.createElement('tr'); build(tr, r); body.appendChild(tr); });
  }
  function say(text) { $('status').textContent = text; }
  function css(name) { return getComputedStyle(doc.documentElement).getPropertyValue(name).trim(); }
  function fmtDate(iso) { return iso ? iso.replace('T', ' ').slice(0, 16) : '—'; }

  /* Draws a time series with uPlot; the figure also records how many points it drew (tests and screen readers read the data table). */
  function drawChart(id, days, series) {
    var el = $(id);
    if (charts[id]) { charts[id].destroy(); delete charts[id]; }
    el.textContent = '';
    el.setAttribute('data-points', String(days.length));
    if (!days.length) { el.textContent = 'No data in this period.'; return; }
    var xs = days.map(function (d) { return Date.parse(d.date + 'T00:00:00Z') / 1000; });
    var data = [xs].concat(series.map(function (s) { return days.map(function (d) { return d[s.field] || 0; }); }));
    var opts = {
      width: Math.max(260, el.clientWidth || 600),
      height: 220,
      scales: { x: { time: true } },
      axes: [{ stroke: css('--muted'), grid: { stroke: css('--line') } }, { stroke: css('--muted'), grid: { stroke: css('--line') } }],
      series: [{}].concat(series.map(function (s) { return { label: s.label, stroke: css(s.color), width: 2, points: { show: days.length < 40 } }; })),
    };
    charts[id] = new window.uPlot(opts, data, el);
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', series.map(function (s) { return s.label + ': ' + data[series.indexOf(s) + 1].reduce(function (a, b) { return a + b; }, 0); }).join(', '));
  }
  function daysTable(id, days) {
    fill(id, days, function (tr, d) { cell(tr, d.date); cell(tr, d.human, true); cell(tr, d.ai, true); });
  }

  function range() {
    var days = Number($('range').value) || 30;
    var to = new Date(Date.now() + 86400000);
    var from = new Date(Date.now() - (days - 1) * 86400000);
    return 'dateFrom=' + from.toISOString().slice(0, 10) + '&dateTo=' + to.toISOString().slice(0, 10);
  }

  function loadTraffic() {
    var q = range();
    return Promise.all([
      analytics('/views?groupBy=day&limit=10&' + q).then(function (v) {
        $('views-totals').textContent = v.totals.total + ' views: ' + v.totals.human + ' human, ' + v.totals.ai + ' AI';
        drawChart('views-chart', v.days, [{ field: 'human', label: 'Human', color: '--human' }, { field: 'ai', label: 'AI', color: '--ai' }]);
        daysTable('views-days', v.days);
        fill('top-pages', v.views, function (tr, p) { cell(tr, p.path); cell(tr, p.human, true); cell(tr, p.ai, true); cell(tr, p.total, true); });
      }),
      analytics('/visitors?groupBy=day&limit=1&' + q).then(function (v) {
        $('visitors-totals').textContent = v.totals.total + ' visitors: ' + v.totals.human + ' human, ' + v.totals.ai + ' AI';
        drawChart('visitors-chart', v.days, [{ field: 'human', label: 'Human', color: '--human' }, { field: 'ai', label: 'AI', color: '--ai' }]);
        daysTable('visitors-days', v.days);
      }),
      analytics('/searches?limit=10&' + q).then(function (s) {
        fill('top-searches', s.searches, function (tr, r) { cell(tr, r.searchQuery); cell(tr, r.hits, true); cell(tr, Math.round(r.ctr * 100) + '%', true); cell(tr, r.topClickedPage); });
      }),
      analytics('/searches?noResults=true&limit=10&' + q).then(function (s) {
        fill('empty-searches', s.searches, function (tr, r) { cell(tr, r.searchQuery); cell(tr, r.hits, true); cell(tr, fmtDate(r.lastSearchedAt)); });
      }),
    ]);
  }

  var SOURCES = [['contextual', '--human'], ['code_snippet', '--ai'], ['thumbs_only', '--third'], ['agent', '--fourth']];
  function loadFeedback() {
    var status = $('status-filter').value;
    var q = range();
    return Promise.all([
      analytics('/feedback/by-day?' + q).then(function (body) {
        drawChart('feedback-chart', body.days, SOURCES.map(function (s) { return { field: s[0], label: s[0], color: s[1] }; }));
      }),
      analytics('/feedback?limit=50&' + q + (status ? '&status=' + status : '')).then(function (page) {
        fill('triage', page.feedback, function (tr, e) {
          cell(tr, fmtDate(e.createdAt));
          cell(tr, e.path);
          cell(tr, e.source);
          cell(tr, (e.helpful === true ? '👍 ' : e.helpful === false ? '👎 ' : '') + (e.comment || e.code || ''));
          var td = doc.createElement('td');
          var select = doc.createElement('select');
          select.setAttribute('aria-label', 'Status of feedback on ' + e.path + ' from ' + fmtDate(e.createdAt));
          ['pending', 'in_progress', 'resolved', 'dismissed'].forEach(function (s) {
            var o = doc.createElement('option');
            o.value = s;
            o.textContent = s.replace('_', ' ');
            o.selected = s === e.status;
            select.appendChild(o);
          });
          select.addEventListener('change', function () {
            select.disabled = true;
            api('/v1/analytics/' + encodeURIComponent(session.projectId) + '/feedback/' + encodeURIComponent(e.id), { method: 'PATCH', json: { status: select.value } })
              .then(function (updated) { say('Feedback on ' + updated.path + ' set to ' + updated.status.replace('_', ' ') + '.'); })
              .catch(function (err) { say('Could not set the status: ' + err.message); })
              .then(function () { select.disabled = false; });
          });
          td.appendChild(select);
          tr.appendChild(td);
        }, 'No feedback with this status in this period.');
      }),
    ]);
  }

  function loadDeployments() {
    return api('/v1/deployments').then(function (body) {
      var active = body.active;
      var list = body.history || [];
      $('active-deployment').textContent = active ? 'Live: ' + (active.domain || '') + ' version ' + active.version + ' since ' + fmtDate(active.activatedAt) : 'No version is live.';
      fill('deployments', list.slice(0, 10), function (tr, d) {
        cell(tr, d.version);
        cell(tr, d.status);
        cell(tr, fmtDate(d.activatedAt || d.requestedAt));
        var td = doc.createElement('td');
        var kept = (body.kept || []).some(function (k) { return k.id === d.id; });
        if (kept && d.version && (!active || d.version !== active.version)) {
          var b = doc.createElement('button');
          b.type = 'button';
          b.textContent = 'Roll back to ' + d.version;
          b.addEventListener('click', function () {
            if (!window.confirm('Serve version ' + d.version + ' again?')) return;
            api('/v1/deployments/rollback', { method: 'POST', json: { version: d.version } })
              .then(function () { say('Rolled back to ' + d.version + '.'); return loadDeployments(); })
              .catch(function (err) { say('Rollback failed: ' + err.message); });
          });
          td.appendChild(b);
        }
        tr.appendChild(td);
      });
      return api('/v1/static-export/jobs?limit=10').then(function (recent) {
        fill('exports', recent.jobs, function (tr, j) {
          cell(tr, j.jobId + ' (' + j.domain + ')');
          cell(tr, j.status);
          cell(tr, j.pageCount + (j.expectedPages ? ' of ' + j.expectedPages : ''), true);
          var failed = j.failedPages || [];
          cell(tr, failed.length ? failed.length + ': ' + failed.slice(0, 3).map(function (f) { return '/' + f.path + ' (' + f.message + ')'; }).join('; ') + (failed.length > 3 ? '; …' : '') : 'none');
          cell(tr, j.error || (j.warningCount ? j.warningCount + ' warning(s): see the job or the bundle report' : 'none'));
        }, 'No export jobs yet.');
      });
    });
  }

  function loadAll() {
    say('Loading…');
    return Promise.all([loadTraffic(), loadFeedback(), loadDeployments().catch(function (err) { $('active-deployment').textContent = 'Deployments: ' + err.message; })])
      .then(function () { say('Updated ' + new Date().toLocaleTimeString() + '.'); })
      .catch(function (err) {
        if (err.status === 401) return signOut('The key was refused; sign in again.');
        say('Could not load everything: ' + err.message);
      });
  }

  function show(signedIn) {
    $('login').hidden = signedIn;
    $('dashboard').hidden = !signedIn;
    $('session-bar').hidden = !signedIn;
  }
  function signOut(message) {
    storeKey(null);
    session = null;
    show(false);
    $('login-error').textContent = message || '';
    $('key').value = '';
    $('key').focus();
  }
  function signIn(key) {
    session = { key: key };
    return api('/_enclave/admin/session').then(function (who) {
      session.projectId = who.projectId;
      session.scope = who.scope;
      storeKey(key);
      show(true);
      $('login-error').textContent = '';
      return loadAll();
    }).catch(function (err) {
      session = null;
      storeKey(null);
      show(false);
      $('login-error').textContent = err.status === 401 ? 'That key was not accepted.' : 'Sign-in failed: ' + err.message;
    });
  }

  $('login').addEventListener('submit', function (e) {
    e.preventDefault();
    var key = $('key').value.trim();
    if (key) signIn(key);
  });
  $('sign-out').addEventListener('click', function () { signOut(''); });
  $('refresh').addEventListener('click', loadAll);
  $('range').addEventListener('change', loadAll);
  $('status-filter').addEventListener('change', function () { loadFeedback().catch(function (err) { say(err.message); }); });
  var resizeTimer = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () {
      Object.keys(charts).forEach(function (id) { var el = $(id); charts[id].setSize({ width: Math.max(260, el.clientWidth), height: 220 }); });
    }, 150);
  });
  var saved = storedKey();
  if (saved) signIn(saved);
  else show(false);
})();
