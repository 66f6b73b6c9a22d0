/* site.js: the default theme's behaviour. It owns the dark-mode toggle, the
 * search as you type (over search-index.json: [kind, title, url relative to
 * the site root, extra text]), copy buttons on code blocks, the resource
 * index filters, and the sidebar scrolled to the page's own topic. No
 * dependencies and no request beyond the site's own search-index.json, so it
 * works offline and under any base path. Every element it looks for has an
 * ssg- id, so content ids cannot clash. */
(function () {
  'use strict';
  var root = document.body.getAttribute('data-root') || './';
  var doc = document.documentElement;

  /* ---- colour scheme: theme.js applied the remembered choice already ---- */
  var toggle = document.querySelector('.theme-toggle');
  var media = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  function scheme() {
    var t = doc.getAttribute('data-theme');
    if (t === 'dark' || t === 'light') return t;
    return media && media.matches ? 'dark' : 'light';
  }
  function syncToggle() {
    if (toggle) toggle.setAttribute('aria-pressed', scheme() === 'dark' ? 'true' : 'false');
  }
  if (toggle) {
    syncToggle();
    toggle.addEventListener('click', function () {
      var next = scheme() === 'dark' ? 'light' : 'dark';
      doc.setAttribute('data-theme', next);
      try { localStorage.setItem('ssg-theme', next); } catch (e) { /* storage off: this page only */ }
      syncToggle();
    });
    if (media && media.addEventListener) media.addEventListener('change', syncToggle);
  }

  /* ---- the sidebar's own topic in view: a long tree scrolls in its box,
   * and a page's topic may come far down it ---- */
  var sidebar = document.querySelector('.sidebar');
  var here = sidebar && sidebar.querySelector('[aria-current="page"]');
  if (here && sidebar.scrollHeight > sidebar.clientHeight) {
    var at = here.getBoundingClientRect(), box = sidebar.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) sidebar.scrollTop += at.top - box.top - box.height / 3;
  }

  /* ---- copy buttons on code blocks ---- */
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var ta = document.createElement('textarea');
      ta.value = text;
      ta.setAttribute('readonly', '');
      ta.style.position = 'fixed';
      ta.style.opacity = '0';
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      document.body.removeChild(ta);
      if (ok) resolve(); else reject(new Error('copy failed'));
    });
  }
  document.querySelectorAll('div.code').forEach(function (block) {
    var pre = block.querySelector('pre');
    if (!pre) return;
    var b = document.createElement('button');
    var lang = block.getAttribute('data-lang');
    b.type = 'button';
    b.className = 'copy';
    b.textContent = 'Copy';
    b.setAttribute('aria-label', 'Copy ' + (lang ? lang + ' ' : '') + 'code to the clipboard');
    b.addEventListener('click', function () {
      copyText(pre.textContent).then(function () {
        b.textContent = 'Copied';
      }, function () {
        b.textContent = 'Press Ctrl+C';
        var r = document.createRange();
        r.selectNodeContents(pre);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(r);
      }).then(function () {
        setTimeout(function () { b.textContent = 'Copy'; }, 1600);
      });
    });
    block.appendChild(b);
  });

  /* ---- search ---- */
  var input = document.getElementById('ssg-search');
  var list = document.getElementById('ssg-search-results');
  var status = document.getElementById('ssg-search-status');
  var index = null, loading = null, failed = false;
  var kinds = { d: 'Document', s: 'Section', t: 'Topic', r: 'Resource' };
  var weight = { d: 3, t: 3, s: 1, r: 0 };
  function norm(s) {
    s = (s || '').toLowerCase();
    return s.normalize ? s.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : s;
  }
  /* Over http(s) the index is fetched as JSON; from file:// (where browsers
   * refuse fetch) the same data comes as a script, search-index.js, which sets
   * window.SSG_SEARCH_INDEX. */
  function fromScript() {
    return new Promise(function (resolve, reject) {
      var sc = document.createElement('script');
      sc.src = root + 'search-index.js';
      sc.onload = function () { window.SSG_SEARCH_INDEX ? resolve(window.SSG_SEARCH_INDEX) : reject(); };
      sc.onerror = reject;
      document.head.appendChild(sc);
    });
  }
  function load() {
    if (index) return Promise.resolve(index);
    if (loading) return loading;
    var data = location.protocol === 'file:' ? fromScript()
      : fetch(root + 'search-index.json')
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); });
    loading = data
      .then(function (d) {
        index = d.map(function (e) { return { e: e, title: norm(e[1]), extra: norm(e[3]) }; });
        return index;
      })
      .catch(function () { failed = true; index = []; return index; });
    return loading;
  }
  function wordStart(text, at) { return at === 0 || /[^a-z0-9]/.test(text.charAt(at - 1)); }
  function search(q) {
    var terms = norm(q).split(/\s+/).filter(Boolean);
    if (!terms.length || !index) return [];
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var x = index[i], score = 0, ok = true;
      for (var k = 0; k < terms.length && ok; k++) {
        var t = terms[k], at = x.title.indexOf(t);
        if (at === 0) score += 8;
        else if (at > 0) score += wordStart(x.title, at) ? 6 : 3;
        else if (x.extra.indexOf(t) >= 0) score += 1;
        else ok = false;
      }
      if (!ok) continue;
      if (x.title === norm(q).trim()) score += 6;
      hits.push({ score: score + weight[x.e[0]], x: x });
    }
    hits.sort(function (a, b) {
      return b.score - a.score || a.x.e[1].length - b.x.e[1].length || (a.x.e[1] < b.x.e[1] ? -1 : 1);
    });
    return hits.slice(0, 15).map(function (h) { return h.x.e; });
  }
  /* text with every term marked, built as DOM nodes (never innerHTML) */
  function marked(text, terms) {
    var frag = document.createDocumentFragment(), low = norm(text), pos = 0;
    while (pos < text.length) {
      var best = -1, len = 0;
      terms.forEach(function (t) {
        var at = low.indexOf(t, pos);
        if (at >= 0 && (best < 0 || at < best)) { best = at; len = t.length; }
      });
      if (best < 0 || low.length !== text.length) { frag.appendChild(document.createTextNode(text.slice(pos))); break; }
      if (best > pos) frag.appendChild(document.createTextNode(text.slice(pos, best)));
      var m = document.createElement('mark');
      m.textContent = text.slice(best, best + len);
      frag.appendChild(m);
      pos = best + len;
    }
    return frag;
  }
  function setOpen(open) { list.hidden = !open; }
  function show(q) {
    var results = search(q);
    var terms = norm(q).split(/\s+/).filter(Boolean);
    list.textContent = '';
    results.forEach(function (e) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = root + e[2];
      a.appendChild(marked(e[1], terms));
      var k = document.createElement('span');
      k.className = 'search-kind';
      var more = e[0] === 's' && e[3] ? ' in ' + e[3] : e[0] === 'r' && e[3] ? ' · ' + e[3].split(' ')[0] : '';
      k.textContent = kinds[e[0]] + more;
      a.appendChild(k);
      li.appendChild(a);
      list.appendChild(li);
    });
    var has = q.trim().length > 0;
    if (!results.length && has) {
      var li = document.createElement('li');
      li.className = 'search-empty';
      li.textContent = failed ? 'Search needs the site served over HTTP (the index could not be loaded).' : 'No results';
      list.appendChild(li);
    }
    if (status) status.textContent = has ? (results.length ? results.length + ' results' : 'No results') : '';
    setOpen(has);
  }
  function links() { return Array.prototype.slice.call(list.querySelectorAll('a')); }
  if (input && list) {
    input.addEventListener('focus', load);
    input.addEventListener('click', function () { if (input.value.trim()) load().then(function () { show(input.value); }); });
    input.addEventListener('input', function () {
      var q = input.value;
      load().then(function () { if (input.value === q) show(q); });
    });
    input.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter') {
        var first = links()[0];
        if (first) { ev.preventDefault(); window.location.href = first.href; }
      } else if (ev.key === 'Escape') {
        input.value = ''; setOpen(false);
      } else if (ev.key === 'ArrowDown') {
        var a = links()[0];
        if (a) { ev.preventDefault(); a.focus(); }
      }
    });
    list.addEventListener('keydown', function (ev) {
      var all = links(), i = all.indexOf(document.activeElement);
      if (ev.key === 'ArrowDown' && i >= 0 && i + 1 < all.length) { ev.preventDefault(); all[i + 1].focus(); }
      else if (ev.key === 'ArrowUp' && i > 0) { ev.preventDefault(); all[i - 1].focus(); }
      else if (ev.key === 'ArrowUp' && i === 0) { ev.preventDefault(); input.focus(); }
      else if (ev.key === 'Escape') { ev.preventDefault(); setOpen(false); input.focus(); }
    });
    document.addEventListener('keydown', function (ev) {
      var a = document.activeElement;
      if (ev.key !== '/' || ev.ctrlKey || ev.metaKey || ev.altKey || a === input) return;
      if (a && (/^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName) || a.isContentEditable)) return;
      ev.preventDefault();
      input.focus();
      input.select();
    });
    document.addEventListener('click', function (ev) {
      if (!ev.target.closest || !ev.target.closest('.search')) setOpen(false);
    });
  }

  /* ---- resource index filters ---- */
  var fk = document.getElementById('ssg-filter-kind');
  var fh = document.getElementById('ssg-filter-host');
  var fs = document.getElementById('ssg-filter-status');
  function filter() {
    var k = fk ? fk.value : '', h = fh ? norm(fh.value.trim()) : '', shown = 0;
    document.querySelectorAll('li.resource').forEach(function (li) {
      var ok = (!k || li.getAttribute('data-kind') === k) &&
               (!h || norm(li.getAttribute('data-host')).indexOf(h) >= 0);
      li.hidden = !ok;
      if (ok) shown++;
    });
    document.querySelectorAll('section.letter').forEach(function (sec) {
      sec.hidden = !sec.querySelector('li.resource:not([hidden])');
    });
    if (fs) fs.textContent = (k || h) ? shown + ' shown' : '';
  }
  if (fk) fk.addEventListener('change', filter);
  if (fh) fh.addEventListener('input', filter);
})();
