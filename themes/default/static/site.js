/* site.js: dark-mode toggle, search as you type, copy buttons on code blocks,
 * and the resource index filters. No dependencies, no network beyond the
 * site's own search-index.json. */
(function () {
  'use strict';
  var root = document.body.getAttribute('data-root') || './';

  /* ---- colour scheme ---- */
  var toggle = document.querySelector('.theme-toggle');
  function current() {
    var t = document.documentElement.getAttribute('data-theme');
    if (t) return t;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  if (toggle) {
    toggle.setAttribute('aria-pressed', current() === 'dark' ? 'true' : 'false');
    toggle.addEventListener('click', function () {
      var next = current() === 'dark' ? 'light' : 'dark';
      document.documentElement.setAttribute('data-theme', next);
      toggle.setAttribute('aria-pressed', next === 'dark' ? 'true' : 'false');
      try { localStorage.setItem('ssg-theme', next); } catch (e) { /* ignore */ }
    });
  }

  /* ---- copy buttons ---- */
  document.querySelectorAll('div.code').forEach(function (block) {
    var pre = block.querySelector('pre');
    if (!pre || !navigator.clipboard) return;
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'copy';
    b.textContent = 'Copy';
    b.setAttribute('aria-label', 'Copy code to clipboard');
    b.addEventListener('click', function () {
      navigator.clipboard.writeText(pre.innerText).then(function () {
        b.textContent = 'Copied';
        setTimeout(function () { b.textContent = 'Copy'; }, 1500);
      });
    });
    block.appendChild(b);
  });

  /* ---- search ---- */
  var input = document.getElementById('search-input');
  var list = document.getElementById('search-results');
  var index = null, loading = null;
  var kinds = { d: 'Document', s: 'Section', t: 'Topic', r: 'Resource' };
  function load() {
    if (index || loading) return loading;
    loading = fetch(root + 'search-index.json').then(function (r) { return r.json(); })
      .then(function (data) { index = data; return data; })
      .catch(function () { index = []; });
    return loading;
  }
  function norm(s) { return (s || '').toLowerCase(); }
  function search(q) {
    var terms = norm(q).split(/\s+/).filter(Boolean);
    if (!terms.length || !index) return [];
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var e = index[i], title = norm(e[1]), extra = norm(e[3]), score = 0, ok = true;
      for (var k = 0; k < terms.length && ok; k++) {
        var t = terms[k];
        if (title.indexOf(t) === 0) score += 4;
        else if (title.indexOf(t) >= 0) score += 2;
        else if (extra.indexOf(t) >= 0) score += 1;
        else ok = false;
      }
      if (ok) hits.push([score + (e[0] === 't' ? 1 : 0), e]);
    }
    hits.sort(function (a, b) { return b[0] - a[0] || a[1][1].localeCompare(b[1][1]); });
    return hits.slice(0, 12).map(function (h) { return h[1]; });
  }
  function show(results) {
    list.innerHTML = '';
    results.forEach(function (e, i) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = root + e[2];
      a.textContent = e[1];
      a.id = 'search-result-' + i;
      var k = document.createElement('span');
      k.className = 'search-kind';
      k.textContent = kinds[e[0]] + (e[0] === 's' ? ' in ' + e[3] : '');
      li.appendChild(a);
      li.appendChild(k);
      list.appendChild(li);
    });
    if (!results.length && input.value.trim()) {
      var li = document.createElement('li');
      li.className = 'search-empty';
      li.textContent = 'No results';
      list.appendChild(li);
    }
    list.hidden = !input.value.trim();
  }
  if (input && list) {
    input.addEventListener('focus', load);
    input.addEventListener('input', function () {
      var q = input.value;
      (index ? Promise.resolve() : load()).then(function () { show(search(q)); });
    });
    input.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter') {
        var first = list.querySelector('a');
        if (first) { ev.preventDefault(); window.location.href = first.href; }
      } else if (ev.key === 'Escape') {
        input.value = ''; list.hidden = true; input.blur();
      } else if (ev.key === 'ArrowDown') {
        var a = list.querySelector('a');
        if (a) { ev.preventDefault(); a.focus(); }
      }
    });
    document.addEventListener('keydown', function (ev) {
      if (ev.key === '/' && document.activeElement !== input &&
          !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) {
        ev.preventDefault();
        input.focus();
      }
    });
    document.addEventListener('click', function (ev) {
      if (!ev.target.closest('.search')) list.hidden = true;
    });
  }

  /* ---- resource index filters ---- */
  var fk = document.getElementById('filter-kind'), fh = document.getElementById('filter-host');
  function filter() {
    var k = fk ? fk.value : '', h = fh ? norm(fh.value.trim()) : '';
    document.querySelectorAll('li.resource').forEach(function (li) {
      var ok = (!k || li.getAttribute('data-kind') === k) &&
               (!h || norm(li.getAttribute('data-host')).indexOf(h) >= 0);
      li.hidden = !ok;
    });
  }
  if (fk) fk.addEventListener('change', filter);
  if (fh) fh.addEventListener('input', filter);
})();
