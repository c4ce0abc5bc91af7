// @ts-check
// size: one classic browser script served as written (no build step); its views share one state and fetch helper
/* Enclave admin dashboard: a static page over the admin API. The key is kept in sessionStorage
   (this tab only) and sent as a bearer header; it never appears in a URL. */
(function () {
  'use strict';
  /** @typedef {{ key: string, projectId?: string, scope?: string }} Session */
  /** @typedef {{ date: string } & Record<string, number | string>} DayRow */
  /** @typedef {{ field: string, label: string, color: string }} Series */
  /** @typedef {{ fromDay: string, lastDay: string, toDay: string, days: number }} Period */
  /** @typedef {{ json?: unknown, method?: string }} ApiInit */
  /** @typedef {Error & { status?: number }} ApiError */
  /** @typedef {{ id: string, version: string | null, status: string, domain: string | null, activatedAt: string | null, requestedAt: string }} Deployment */
  /** @typedef {{ site: string | null, active: Deployment | null, kept: Deployment[], history: Deployment[], lastError: { at: string, reason: string } | null }} DeploymentStatus */
  /** The uPlot build the page loads (uplot.js); only what this script calls. */
  /** @typedef {{ destroy(): void, setSize(size: { width: number, height: number }): void, scales: Record<string, { min?: number | null, max?: number | null }>, data: number[][] }} Plot */

  var KEY_ITEM = 'enclave-admin-key';
  var DAY_MS = 86400000;
  var doc = document;
  /** @param {string} id @returns {any} the element (the page's ids are fixed in index.html) */
  var $ = function (id) { return doc.getElementById(id); };
  /** @type {Session | null} */
  var session = null;
  /** @type {Record<string, Plot>} */
  var charts = {};
  /** Domains of the project's sites (and of live versions), for the switcher and "all sites" tables. */
  /** @type {string[]} */
  var siteList = [];
  /** Rows of the tables as last drawn, for their CSV downloads: header first. */
  /** @type {Record<string, (string | number)[][]>} */
  var tableData = {};

  function storedKey() { try { return sessionStorage.getItem(KEY_ITEM); } catch (e) { return null; } }
  /** @param {string | null} key */
  function storeKey(key) { try { if (key) sessionStorage.setItem(KEY_ITEM, key); else sessionStorage.removeItem(KEY_ITEM); } catch (e) { /* storage off: this page load only */ } }

  /** @param {string} path @param {ApiInit} [init] @returns {Promise<any>} */
  function api(path, init) {
    init = init || {};
    /** @type {Record<string, string>} */
    var headers = { Authorization: 'Bearer ' + (session ? session.key : '') };
    if (init.json !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(path, { method: init.method || 'GET', headers: headers, body: init.json === undefined ? undefined : JSON.stringify(init.json), cache: 'no-store', credentials: 'omit' })
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (body) {
          if (!res.ok) { var err = /** @type {ApiError} */ (new Error(body.error || ('HTTP ' + res.status))); err.status = res.status; throw err; }
          return body;
        });
      });
  }
  /** @param {string} path */
  function analytics(path) { return api('/v1/analytics/' + encodeURIComponent(session && session.projectId || '') + path); }

  /** The chosen site's domain, or '' for every site. */
  function site() { return /** @type {string} */ ($('site').value); }
  /** `&domain=` for the chosen site (nothing for "all sites"). */
  function siteQuery() { return site() ? '&domain=' + encodeURIComponent(site()) : ''; }

  /** @param {HTMLTableRowElement} row @param {unknown} text @param {boolean} [numeric] */
  function cell(row, text, numeric) {
    var td = doc.createElement('td');
    td.textContent = text === null || text === undefined || text === '' ? '—' : String(text);
    if (numeric) td.className = 'num';
    row.appendChild(td);
    return td;
  }
  /**
   * Fills a table; `build` adds a row's cells and returns their plain values for the CSV.
   * @template T
   * @param {string} tableId @param {T[]} rows @param {(tr: HTMLTableRowElement, r: T) => (string | number)[] | void} build @param {string} [emptyText]
   */
  function fill(tableId, rows, build, emptyText) {
    var table = /** @type {HTMLTableElement} */ ($(tableId));
    var body = table.tBodies[0];
    body.textContent = '';
    /** @type {string[]} */
    var header = [];
    if (table.tHead) Array.prototype.forEach.call(table.tHead.rows[0].cells, function (/** @type {HTMLElement} */ th) { header.push((th.textContent || '').trim()); });
    /** @type {(string | number)[][]} */
    var csv = [header];
    tableData[tableId] = csv;
    if (!rows.length) {
      var tr = doc.createElement('tr');
      var td = cell(tr, emptyText || 'Nothing in this period.');
      td.colSpan = header.length;
      body.appendChild(tr);
      return;
    }
    rows.forEach(function (r) {
      var row = doc.createElement('tr');
      var values = build(row, r);
      if (values) csv.push(values);
      body.appendChild(row);
    });
  }
  /** @param {string} text */
  function say(text) { $('status').textContent = text; }
  /** @param {string} name */
  function css(name) { return getComputedStyle(doc.documentElement).getPropertyValue(name).trim(); }
  /** @param {string | null | undefined} iso */
  function fmtDate(iso) { return iso ? iso.replace('T', ' ').slice(0, 16) : '—'; }
  /** @param {number} ms */
  function isoDay(ms) { return new Date(ms).toISOString().slice(0, 10); }

  /** The chosen period in whole UTC days, ending today: what the charts' x-axis spans. @returns {Period} */
  function period() {
    var days = Number($('range').value) || 30;
    var today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    return { fromDay: isoDay(today - (days - 1) * DAY_MS), lastDay: isoDay(today), toDay: isoDay(today + DAY_MS), days: days };
  }
  function range() {
    var p = period();
    return 'dateFrom=' + p.fromDay + '&dateTo=' + p.toDay;
  }

  /**
   * Every day of the period, oldest first, with 0 for each field on a day the API has no row for:
   * a day without traffic is a real zero, and must be drawn as one rather than skipped.
   * @param {DayRow[]} days @param {Period} p @param {string[]} fields @returns {DayRow[]}
   */
  function everyDay(days, p, fields) {
    /** @type {Record<string, DayRow>} */
    var byDate = {};
    days.forEach(function (d) { byDate[d.date] = d; });
    /** @type {DayRow[]} */
    var out = [];
    for (var ms = Date.parse(p.fromDay + 'T00:00:00Z'); ms <= Date.parse(p.lastDay + 'T00:00:00Z'); ms += DAY_MS) {
      var date = isoDay(ms);
      var have = byDate[date];
      /** @type {DayRow} */
      var row = { date: date };
      fields.forEach(function (f) { row[f] = have ? Number(have[f]) || 0 : 0; });
      out.push(row);
    }
    return out;
  }

  /**
   * Draws a time series over the whole chosen period with uPlot. The figure records what it drew
   * (days with data, days drawn, the x-axis range), which tests and screen readers can read; the
   * data table beside it lists the same days.
   * @param {string} id @param {DayRow[]} days as the API returned them @param {Series[]} series
   */
  function drawChart(id, days, series) {
    var el = $(id);
    var p = period();
    if (charts[id]) { charts[id].destroy(); delete charts[id]; }
    el.textContent = '';
    var fields = series.map(function (s) { return s.field; });
    var filled = everyDay(days, p, fields);
    var withData = filled.filter(function (d) { return fields.some(function (f) { return Number(d[f]) > 0; }); }).length;
    el.setAttribute('data-points', String(withData));
    var xs = filled.map(function (d) { return Date.parse(d.date + 'T00:00:00Z') / 1000; });
    var data = [xs].concat(series.map(function (s) { return filled.map(function (d) { return Number(d[s.field]); }); }));
    var xMin = xs[0];
    var xMax = xs[xs.length - 1];
    /** @type {Record<string, unknown>} */
    var opts = {
      width: Math.max(260, el.clientWidth || 600),
      height: 220,
      // The axis spans the period asked for, not the data: one day of data is one point in a
      // month, not a lone dot on an axis that uPlot would otherwise stretch around it.
      scales: { x: { time: true, range: function () { return [xMin, xMax]; } }, y: { range: function (/** @type {unknown} */ u, /** @type {number} */ min, /** @type {number} */ max) { return [0, Math.max(1, max)]; } } },
      axes: [{ stroke: css('--muted'), grid: { stroke: css('--line') } }, { stroke: css('--muted'), grid: { stroke: css('--line') } }],
      series: [{}].concat(series.map(function (s) { return { label: s.label, stroke: css(s.color), width: 2, points: { show: filled.length < 40 } }; })),
    };
    /** Records what uPlot drew: the days, the zero days, and the range of the drawn x-axis. @param {Plot} u */
    var recordDrawn = function (u) {
      var drawnX = u.data[0];
      var zeroDays = drawnX.filter(function (_x, i) { return u.data.slice(1).every(function (ys) { return ys[i] === 0; }); }).length;
      el.setAttribute('data-days', String(drawnX.length));
      el.setAttribute('data-zero-days', String(zeroDays));
      el.setAttribute('data-x-min', isoDay(Number(u.scales.x.min) * 1000));
      el.setAttribute('data-x-max', isoDay(Number(u.scales.x.max) * 1000));
    };
    opts.hooks = { draw: [recordDrawn] };
    charts[id] = /** @type {Plot} */ (new (/** @type {any} */ (window).uPlot)(opts, data, el));
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', p.fromDay + ' to ' + p.lastDay + ': ' + series.map(function (s, i) { return s.label + ' ' + data[i + 1].reduce(function (a, b) { return a + b; }, 0); }).join(', '));
  }
  /** The data table of a chart: every day of the period, newest first. @param {string} id @param {DayRow[]} days */
  function daysTable(id, days) {
    var filled = everyDay(days, period(), ['human', 'ai']).reverse();
    fill(id, filled, function (tr, d) { cell(tr, d.date); cell(tr, d.human, true); cell(tr, d.ai, true); return [d.date, d.human, d.ai]; });
  }

  /**
   * Rows of one report for the chosen site, or for "all sites" one request per site with each
   * row tagged by its site and the busiest `limit` kept: the reports count pages across sites.
   * @param {string} path report path and query, without the site @param {string} listField @param {(r: any) => number} weight @param {number} limit
   * @returns {Promise<any[]>}
   */
  function rowsBySite(path, listField, weight, limit) {
    var chosen = site();
    var domains = chosen ? [chosen] : siteList;
    if (!domains.length) return analytics(path).then(function (body) { return body[listField]; });
    return Promise.all(domains.map(function (domain) {
      return analytics(path + '&domain=' + encodeURIComponent(domain)).then(function (body) {
        return body[listField].map(function (/** @type {any} */ r) { return Object.assign({ site: domain }, r); });
      });
    })).then(function (lists) {
      /** @type {any[]} */
      var rows = [];
      lists.forEach(function (list) { rows = rows.concat(list); });
      rows.sort(function (a, b) { return weight(b) - weight(a); });
      return rows.slice(0, limit);
    });
  }

  var KINDS = [{ field: 'human', label: 'Human', color: '--human' }, { field: 'ai', label: 'AI', color: '--ai' }];
  function loadTraffic() {
    var q = range() + siteQuery();
    var views = analytics('/views?groupBy=day&limit=10&' + q);
    return Promise.all([
      views.then(function (v) {
        $('views-totals').textContent = v.totals.total + ' views: ' + v.totals.human + ' human, ' + v.totals.ai + ' AI';
        drawChart('views-chart', v.days, KINDS);
        daysTable('views-days', v.days);
      }),
      // One site's top pages come with its chart; all sites' need a request per site.
      (site() || !siteList.length
        ? views.then(function (v) { return v.views.map(function (/** @type {any} */ r) { return Object.assign({ site: site() }, r); }); })
        : rowsBySite('/views?limit=10&' + range(), 'views', function (p) { return p.total; }, 10)
      ).then(function (rows) {
        fill('top-pages', rows, function (tr, p) { cell(tr, p.site); cell(tr, p.path); cell(tr, p.human, true); cell(tr, p.ai, true); cell(tr, p.total, true); return [p.site || '', p.path, p.human, p.ai, p.total]; });
      }),
      analytics('/visitors?groupBy=day&limit=1&' + q).then(function (v) {
        $('visitors-totals').textContent = v.totals.total + ' visitors: ' + v.totals.human + ' human, ' + v.totals.ai + ' AI';
        drawChart('visitors-chart', v.days, KINDS);
        daysTable('visitors-days', v.days);
      }),
      rowsBySite('/searches?limit=10&' + range(), 'searches', function (r) { return r.hits; }, 10).then(function (rows) {
        fill('top-searches', rows, function (tr, r) { cell(tr, r.site); cell(tr, r.searchQuery); cell(tr, r.hits, true); cell(tr, Math.round(r.ctr * 100) + '%', true); cell(tr, r.topClickedPage); return [r.site || '', r.searchQuery, r.hits, r.ctr, r.topClickedPage || '']; });
      }),
      rowsBySite('/searches?noResults=true&limit=10&' + range(), 'searches', function (r) { return r.hits; }, 10).then(function (rows) {
        fill('empty-searches', rows, function (tr, r) { cell(tr, r.site); cell(tr, r.searchQuery); cell(tr, r.hits, true); cell(tr, fmtDate(r.lastSearchedAt)); return [r.site || '', r.searchQuery, r.hits, r.lastSearchedAt]; });
      }),
    ]);
  }

  var SOURCES = [['contextual', '--human'], ['code_snippet', '--ai'], ['thumbs_only', '--third'], ['agent', '--fourth']];
  function loadFeedback() {
    var status = $('status-filter').value;
    var q = range() + siteQuery();
    return Promise.all([
      analytics('/feedback/by-day?' + q).then(function (body) {
        drawChart('feedback-chart', body.days, SOURCES.map(function (s) { return { field: s[0], label: s[0], color: s[1] }; }));
      }),
      analytics('/feedback?limit=50&' + q + (status ? '&status=' + status : '')).then(function (page) {
        fill('triage', page.feedback, function (tr, /** @type {any} */ e) {
          var text = (e.helpful === true ? '👍 ' : e.helpful === false ? '👎 ' : '') + (e.comment || e.code || '');
          cell(tr, fmtDate(e.createdAt));
          cell(tr, e.domain);
          cell(tr, e.path);
          cell(tr, e.source);
          cell(tr, text);
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
            api('/v1/analytics/' + encodeURIComponent(session && session.projectId || '') + '/feedback/' + encodeURIComponent(e.id), { method: 'PATCH', json: { status: select.value } })
              .then(function (updated) { say('Feedback on ' + updated.path + ' set to ' + updated.status.replace('_', ' ') + '.'); })
              .catch(function (err) { say('Could not set the status: ' + err.message); })
              .then(function () { select.disabled = false; });
          });
          td.appendChild(select);
          tr.appendChild(td);
          return [e.createdAt, e.domain || '', e.path, e.source, text, e.status];
        }, 'No feedback with this status in this period.');
      }),
    ]);
  }

  /**
   * The deployments of every site: the default site (which also serves sites without versions of
   * their own) and each site's own. Each comes with the `domain` a rollback must name (null: the
   * default site).
   * @returns {Promise<{ slot: string | null, status: DeploymentStatus }[]>}
   */
  function deploymentSlots() {
    /** @type {(string | null)[]} */
    var slots = [null];
    slots = slots.concat(siteList);
    return Promise.all(slots.map(function (slot) {
      return api('/v1/deployments' + (slot ? '?domain=' + encodeURIComponent(slot) : ''))
        .then(function (status) { return { slot: slot, status: /** @type {DeploymentStatus} */ (status) }; })
        .catch(function () { return null; });
    })).then(function (all) { return /** @type {{ slot: string | null, status: DeploymentStatus }[]} */ (all.filter(Boolean)); });
  }

  /** @param {Deployment} d @param {string | null} slot */
  function siteOf(d, slot) { return slot || d.domain || 'default site'; }

  // size: one view: fetches every site's deployments and draws their rows and rollback buttons
  function loadDeployments() {
    var chosen = site();
    // size: the rows of every site's deployments, drawn in one pass over the slots
    return deploymentSlots().then(function (slots) {
      /** @type {{ d: Deployment, slot: string | null, kept: boolean, live: boolean }[]} */
      var rows = [];
      /** @type {string[]} */
      var live = [];
      var seen = /** @type {Record<string, boolean>} */ ({});
      slots.forEach(function (s) {
        var status = s.status;
        // A site named by the default site's own domain answers with the default site: listed once.
        var mine = function (/** @type {Deployment} */ d) { return !chosen || siteOf(d, s.slot) === chosen; };
        // A site's failed deployment must be seen here, not only in its history: its last error.
        var label = s.slot || (status.active && status.active.domain) || 'the default site';
        if (status.lastError && (!chosen || label === chosen))
          live.push('Last error on ' + label + ' (' + fmtDate(status.lastError.at) + '): ' + status.lastError.reason);
        if (status.active && mine(status.active) && !seen['live:' + status.active.id]) {
          seen['live:' + status.active.id] = true;
          live.push('Live: ' + siteOf(status.active, s.slot) + ' version ' + status.active.version + ' since ' + fmtDate(status.active.activatedAt));
        }
        (status.history || []).forEach(function (d) {
          if (!mine(d) || seen[d.id]) return;
          seen[d.id] = true;
          var kept = (status.kept || []).some(function (k) { return k.id === d.id; });
          rows.push({ d: d, slot: s.slot, kept: kept, live: !!status.active && status.active.version === d.version });
        });
      });
      rows.sort(function (a, b) { return (b.d.activatedAt || b.d.requestedAt) < (a.d.activatedAt || a.d.requestedAt) ? -1 : 1; });
      $('active-deployment').textContent = live.length ? live.join('; ') : 'No version is live' + (chosen ? ' on ' + chosen : '') + '.';
      fill('deployments', rows.slice(0, chosen ? 10 : 20), function (tr, r) {
        var d = r.d;
        var where = siteOf(d, r.slot);
        cell(tr, where);
        cell(tr, d.version);
        cell(tr, d.status);
        cell(tr, fmtDate(d.activatedAt || d.requestedAt));
        var td = doc.createElement('td');
        if (r.kept && d.version && !r.live) {
          var b = doc.createElement('button');
          b.type = 'button';
          b.textContent = 'Roll back ' + where + ' to ' + d.version;
          b.addEventListener('click', function () {
            if (!window.confirm('Serve version ' + d.version + ' of ' + where + ' again?')) return;
            /** @type {Record<string, string>} */
            var body = { version: /** @type {string} */ (d.version) };
            if (r.slot) body.domain = r.slot;
            api('/v1/deployments/rollback', { method: 'POST', json: body })
              .then(function () { say('Rolled ' + where + ' back to ' + d.version + '.'); return loadDeployments(); })
              .catch(function (err) { say('Rollback failed: ' + err.message); });
          });
          td.appendChild(b);
        }
        tr.appendChild(td);
        return [where, d.version || '', d.status, d.activatedAt || d.requestedAt];
      }, chosen ? 'No deployments of ' + chosen + '.' : 'No deployments yet.');
      return api('/v1/static-export/jobs?limit=100').then(function (recent) {
        var jobs = recent.jobs.filter(function (/** @type {any} */ j) { return !chosen || j.domain === chosen; }).slice(0, 10);
        fill('exports', jobs, function (tr, /** @type {any} */ j) {
          cell(tr, j.domain);
          cell(tr, j.jobId);
          cell(tr, j.status);
          cell(tr, j.pageCount + (j.expectedPages ? ' of ' + j.expectedPages : ''), true);
          var failed = j.failedPages || [];
          var failedText = failed.length ? failed.length + ': ' + failed.slice(0, 3).map(function (/** @type {any} */ f) { return '/' + f.path + ' (' + f.message + ')'; }).join('; ') + (failed.length > 3 ? '; …' : '') : 'none';
          cell(tr, failedText);
          var problems = j.error || (j.warningCount ? j.warningCount + ' warning(s): see the job or the bundle report' : 'none');
          cell(tr, problems);
          return [j.domain, j.jobId, j.status, j.pageCount, failedText, problems];
        }, 'No export jobs yet.');
        return loadGitUpdates(chosen);
      });
    });
  }

  /**
   * The git sources' recent updates (push, poll, API): a fetch or export that failed shows here
   * with git's reason, while the live version keeps serving. Sites without git have none.
   * @param {string} chosen
   */
  function loadGitUpdates(chosen) {
    return api('/v1/project/updates/' + encodeURIComponent(session && session.projectId || '') + '?limit=50').then(function (body) {
      var updates = body.updates.filter(function (/** @type {any} */ u) { return !chosen || u.subdomain === chosen; }).slice(0, 10);
      fill('git-updates', updates, function (tr, /** @type {any} */ u) {
        var commit = u.commit ? u.commit.sha.slice(0, 12) + ' ' + u.commit.message : '';
        cell(tr, u.subdomain);
        cell(tr, commit);
        cell(tr, u.status);
        cell(tr, fmtDate(u.endedAt || u.createdAt));
        cell(tr, u.source);
        cell(tr, u.summary);
        return [u.subdomain, commit, u.status, u.endedAt || u.createdAt, u.source, u.summary];
      }, 'No git updates' + (chosen ? ' of ' + chosen : '') + '.');
      return loadPreviews(chosen);
    });
  }

  /**
   * The project's branch previews, each with a link to open it and a button to delete it (it
   * stops being served at once; a later preview call for the branch builds it again).
   * @param {string} chosen
   */
  function loadPreviews(chosen) {
    return api('/v1/project/previews/' + encodeURIComponent(session && session.projectId || '')).then(function (body) {
      var previews = body.previews.filter(function (/** @type {any} */ p) { return !chosen || p.subdomain === chosen; });
      fill('previews', previews, function (tr, /** @type {any} */ p) {
        cell(tr, p.subdomain);
        cell(tr, p.branch);
        cell(tr, p.commit ? p.commit.slice(0, 12) : '—');
        cell(tr, p.error ? p.status + ': ' + p.error : p.status);
        cell(tr, fmtDate(p.expiresAt));
        var td = doc.createElement('td');
        if (p.commit) {
          var open = doc.createElement('a');
          open.href = p.previewUrl;
          open.target = '_blank';
          open.rel = 'noopener noreferrer';
          open.textContent = 'Open';
          td.appendChild(open);
          td.appendChild(doc.createTextNode(' '));
        }
        var del = doc.createElement('button');
        del.type = 'button';
        del.textContent = 'Delete ' + p.branch;
        del.addEventListener('click', function () {
          if (!window.confirm('Delete the preview of ' + p.branch + '?')) return;
          api('/v1/project/preview/' + encodeURIComponent(p.projectId) + '/' + encodeURIComponent(p.id), { method: 'DELETE' })
            .then(function () { say('Deleted the preview of ' + p.branch + '.'); return loadPreviews(chosen); })
            .catch(function (err) { say('Delete failed: ' + err.message); });
        });
        td.appendChild(del);
        tr.appendChild(td);
        return [p.subdomain, p.branch, p.commit || '', p.status, p.expiresAt];
      }, 'No previews' + (chosen ? ' of ' + chosen : '') + '.');
    });
  }

  /**
   * Fills the site switcher: "All sites", then the project's sites and any domain live on the
   * default site that is not one of them (a `staticExport` bundle's). Keeps the choice, and
   * takes one from the address (`#site=domain`) on first load.
   */
  function loadSites() {
    return Promise.all([
      api('/v1/sites').then(function (body) { return body.sites.map(function (/** @type {{ domain: string }} */ s) { return s.domain; }); }),
      api('/v1/deployments').then(function (body) { return body.active && body.active.domain ? [body.active.domain] : []; }).catch(function () { return []; }),
    ]).then(function (found) {
      /** @type {string[]} */
      var domains = [];
      found[0].concat(found[1]).forEach(function (/** @type {string} */ d) { d = d.toLowerCase(); if (domains.indexOf(d) < 0) domains.push(d); });
      siteList = domains.sort();
      var select = $('site');
      var wanted = select.value || decodeURIComponent((/[#&]site=([^&]*)/.exec(location.hash) || [])[1] || '');
      select.textContent = '';
      [''].concat(siteList).forEach(function (d) {
        var o = doc.createElement('option');
        o.value = d;
        o.textContent = d || 'All sites';
        select.appendChild(o);
      });
      select.value = siteList.indexOf(wanted) >= 0 ? wanted : '';
    });
  }

  /**
   * The Assistant view, loaded when its section is opened (so a dashboard load costs the
   * analytics budget it always did): questions per day, unanswered questions (the docs' gaps),
   * the pages answers cited most, and a reader for one thread. Project-wide: conversations carry no site.
   */
  function loadAssistant() {
    return analytics('/assistant?limit=1000&' + range()).then(function (body) {
      /** @type {any[]} */
      var list = body.conversations;
      /** @type {Record<string, DayRow>} */
      var byDay = {};
      list.forEach(function (c) {
        var day = c.timestamp.slice(0, 10);
        var row = byDay[day] || (byDay[day] = { date: day, answered: 0, unanswered: 0 });
        row[c.resolutionStatus] = Number(row[c.resolutionStatus]) + 1;
      });
      var days = Object.keys(byDay).sort().map(function (d) { return byDay[d]; });
      drawChart('assistant-chart', days, [{ field: 'answered', label: 'Answered', color: '--human' }, { field: 'unanswered', label: 'Unanswered', color: '--ai' }]);
      $('assistant-totals').textContent = list.length + ' questions' + (body.hasMore ? ' (the latest 1000)' : '') + ', ' + list.filter(function (c) { return c.resolutionStatus === 'unanswered'; }).length + ' unanswered';
      fill('assistant-unanswered', list.filter(function (c) { return c.resolutionStatus === 'unanswered'; }).slice(0, 50), function (tr, c) {
        cell(tr, fmtDate(c.timestamp)); cell(tr, c.query); cell(tr, c.pageUrl); threadButton(tr, c);
        return [c.timestamp, c.query, c.pageUrl || ''];
      }, 'No unanswered questions in this period.');
      /** @type {Record<string, number>} */
      var cited = {};
      list.forEach(function (c) { c.sources.forEach(function (/** @type {{ url: string }} */ s) { var page = s.url.split('#')[0]; cited[page] = (cited[page] || 0) + 1; }); });
      var top = Object.keys(cited).map(function (page) { return { page: page, n: cited[page] }; }).sort(function (a, b) { return b.n - a.n; }).slice(0, 10);
      fill('assistant-cited', top, function (tr, r) { cell(tr, r.page); cell(tr, r.n, true); return [r.page, r.n]; });
      fill('assistant-recent', list.slice(0, 20), function (tr, c) {
        cell(tr, fmtDate(c.timestamp)); cell(tr, c.query); cell(tr, c.resolutionStatus); threadButton(tr, c);
        return [c.timestamp, c.query, c.resolutionStatus];
      });
    });
  }
  /** A button that opens the conversation's thread in the reader. @param {HTMLTableRowElement} tr @param {any} c */
  function threadButton(tr, c) {
    var td = doc.createElement('td');
    var b = doc.createElement('button');
    b.type = 'button';
    b.textContent = 'Read thread';
    b.setAttribute('aria-label', 'Read the thread of “' + c.query + '”');
    b.addEventListener('click', function () { readThread(c.threadId).catch(function (/** @type {Error} */ err) { say(err.message); }); });
    td.appendChild(b);
    tr.appendChild(td);
  }
  /** Shows one thread, question and answer by turn, as plain text. @param {string} threadId */
  function readThread(threadId) {
    return analytics('/assistant/threads/' + encodeURIComponent(threadId)).then(function (thread) {
      var box = $('assistant-thread');
      box.textContent = '';
      thread.messages.forEach(function (/** @type {{ role: string, content: string, createdAt: string }} */ m) {
        var p = doc.createElement('p');
        p.className = 'turn ' + m.role;
        var who = doc.createElement('strong');
        who.textContent = (m.role === 'user' ? 'Reader' : 'Assistant') + ' · ' + fmtDate(m.createdAt) + ': ';
        p.appendChild(who);
        p.appendChild(doc.createTextNode(m.content));
        box.appendChild(p);
      });
      box.focus();
    });
  }

  function loadAll() {
    say('Loading…');
    return loadSites()
      .then(function () { return Promise.all([loadTraffic(), loadFeedback(), loadDeployments().catch(function (err) { $('active-deployment').textContent = 'Deployments: ' + err.message; })]); })
      .then(function () { say('Updated ' + new Date().toLocaleTimeString() + '.'); })
      .catch(function (err) {
        if (err.status === 401) return signOut('The key was refused; sign in again.');
        say('Could not load everything: ' + err.message);
      });
  }

  /** A CSV cell: quoted when needed, and a leading = + - @ defused so a spreadsheet won't run it. @param {string | number} value */
  function csvCell(value) {
    var text = String(value === null || value === undefined ? '' : value);
    if (/^[=+\-@\t\r]/.test(text)) text = "'" + text;
    return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }
  /** Downloads a table as last drawn (with its site column) as CSV. @param {string} tableId */
  function downloadCsv(tableId) {
    var rows = tableData[tableId] || [];
    var text = rows.map(function (r) { return r.map(csvCell).join(','); }).join('\r\n') + '\r\n';
    var link = doc.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    link.download = tableId + (site() ? '-' + site() : '-all-sites') + '.csv';
    doc.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 0);
  }

  /** @param {boolean} signedIn */
  function show(signedIn) {
    $('login').hidden = signedIn;
    $('dashboard').hidden = !signedIn;
    $('session-bar').hidden = !signedIn;
  }
  /** @param {string} [message] */
  function signOut(message) {
    storeKey(null);
    session = null;
    show(false);
    $('login-error').textContent = message || '';
    $('key').value = '';
    $('key').focus();
  }
  /** @param {string} key */
  function signIn(key) {
    session = { key: key };
    return api('/_enclave/admin/session').then(function (who) {
      if (!session) return;
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

  $('login').addEventListener('submit', function (/** @type {Event} */ e) {
    e.preventDefault();
    var key = $('key').value.trim();
    if (key) signIn(key);
  });
  $('sign-out').addEventListener('click', function () {
    // A key minted for a provider sign-in is revoked with its session; a pasted key is left valid.
    if (session) api('/_enclave/admin/auth/sign-out', { method: 'POST' }).catch(function () { /* it expires anyway */ });
    signOut('');
  });
  $('refresh').addEventListener('click', loadAll);
  $('assistant-view').addEventListener('toggle', function () {
    if ($('assistant-view').open) loadAssistant().catch(function (/** @type {ApiError} */ err) { say('Assistant: ' + err.message); });
  });
  $('range').addEventListener('change', loadAll);
  $('site').addEventListener('change', function () {
    history.replaceState(null, '', site() ? '#site=' + encodeURIComponent(site()) : location.pathname + location.search);
    loadAll();
  });
  $('status-filter').addEventListener('change', function () { loadFeedback().catch(function (err) { say(err.message); }); });
  Array.prototype.forEach.call(doc.querySelectorAll('button[data-csv]'), function (/** @type {HTMLButtonElement} */ b) {
    b.addEventListener('click', function () { downloadCsv(/** @type {string} */ (b.getAttribute('data-csv'))); });
  });
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  var resizeTimer;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () {
      Object.keys(charts).forEach(function (id) { var el = $(id); charts[id].setSize({ width: Math.max(260, el.clientWidth), height: 220 }); });
    }, 150);
  });
  fetch('/_enclave/admin/auth/options', { cache: 'no-store', credentials: 'omit' })
    .then(function (res) { return res.ok ? res.json() : { oidc: false }; })
    .then(function (/** @type {{ oidc: boolean }} */ options) { $('sso').hidden = !options.oidc; })
    .catch(function () { /* keys only */ });
  var saved = storedKey();
  if (location.hash === '#signed-in') {
    // Back from the provider: collect the key minted for this sign-in (once, by its HttpOnly cookie).
    history.replaceState(null, '', location.pathname + location.search);
    fetch('/_enclave/admin/auth/handoff', { method: 'POST', cache: 'no-store', credentials: 'same-origin' })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (/** @type {{ key: string } | null} */ found) {
        if (found) signIn(found.key);
        else if (saved) signIn(saved);
        else signOut('That sign-in was already used or has expired; sign in again.');
      })
      .catch(function () { signOut('Sign-in failed; try again.'); });
  } else if (saved) signIn(saved);
  else show(false);
})();
