/* site.js: the default theme's behaviour. It owns the dark-mode toggle, the
 * search as you type (over the search index's parts in search/), copy
 * buttons on code blocks, the resource index filters, and the sidebar
 * scrolled to the page's own topic. No dependencies and no request beyond
 * the site's own files, so it works offline, from file:// and under any base
 * path. Every element it looks for has an
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
  /* The index comes in parts (search/, see the README): search/index.js
   * names the first word of each words part and carries the folding of
   * letters; a query's words load the words parts they fall in, and the
   * best hits' entries load the records parts that hold them. Each part is a
   * script calling ssgSearchPart, so it loads from file:// too. */
  var input = document.getElementById('ssg-search');
  var list = document.getElementById('ssg-search-results');
  var status = document.getElementById('ssg-search-status');
  var failed = false, parts = {}, loads = {}, folds = null;
  var kinds = { d: 'Document', s: 'Section', t: 'Topic', r: 'Resource' };
  var kindWeight = [3, 1, 3, 0]; /* by a posting's kind: document, section, topic, resource */
  var SHOWN = 15, FETCHED = 20;
  window.ssgSearchPart = function (name, data) { parts[name] = data; };
  function part(name) {
    if (!loads[name]) {
      loads[name] = new Promise(function (resolve, reject) {
        var sc = document.createElement('script');
        sc.src = root + 'search/' + name + '.js';
        sc.onload = function () { name in parts ? resolve(parts[name]) : reject(new Error(name)); };
        sc.onerror = function () { delete loads[name]; reject(new Error(name)); };
        document.head.appendChild(sc);
      });
    }
    return loads[name];
  }
  function load() {
    return part('index').then(function (meta) {
      if (!folds) {
        folds = {};
        var cps = Array.from(meta.fold);
        for (var i = 0; i + 1 < cps.length; i += 2) folds[cps[i]] = cps[i + 1];
      }
      return meta;
    });
  }
  function norm(s) {
    s = (s || '').toLowerCase();
    return s.normalize ? s.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : s;
  }
  /* src/words.c's rules: what separates words, and each character folded */
  function isSep(c) {
    if (c < 0x80) return !((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57));
    if (c <= 0xbf) return c !== 0xaa && c !== 0xb5 && c !== 0xba;
    return c === 0xd7 || c === 0xf7 || (c >= 0x2000 && c <= 0x206f) ||
      (c >= 0x3000 && c <= 0x303f) || c === 0xfeff || c === 0xfffd;
  }
  function fold(ch) {
    var c = ch.codePointAt(0);
    if (c < 0x80) return c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : ch;
    if (c >= 0x300 && c <= 0x36f) return '';
    return folds[ch] || ch;
  }
  function utf8Bytes(c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; }
  /* a query's words, folded, and its length as the index counts a title's */
  function words(text, max) {
    var out = [], w = '', bytes = 0, full = false, length = 0, space = false;
    function flush() { if (w && out.indexOf(w) < 0) out.push(w); w = ''; bytes = 0; full = false; }
    Array.from(text).forEach(function (ch) {
      var c = ch.codePointAt(0), sep = isSep(c);
      if (sep) {
        flush();
        if (c === 32 || c === 9 || c === 10 || c === 0xa0) { space = length > 0; return; }
      }
      var f = fold(ch);
      if (!f) return;
      if (space) { length++; space = false; }
      length++;
      if (sep || full) return;
      var n = utf8Bytes(f.codePointAt(0));
      if (bytes + n > max) { full = true; return; }
      w += f; bytes += n;
    });
    flush();
    return { words: out, length: length };
  }
  /* code point order, as the index sorts its words (by their UTF-8 bytes) */
  function before(a, b) {
    var i = 0;
    while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    if (i === a.length) return i < b.length;
    if (i === b.length) return false;
    return a.codePointAt(i) < b.codePointAt(i);
  }
  /* id -> best place of the term in the entry, and the entry's kind and
   * title length; a term of one character matches that word only, a longer
   * one every word it begins */
  function lookup(meta, term) {
    var first = meta.words, at = 0;
    if (!first.length) return Promise.resolve(new Map());
    for (var i = 1; i < first.length && !before(term, first[i]); i++) at = i;
    var names = ['w' + at];
    for (var j = at + 1; term.length > 1 && j < first.length && first[j].indexOf(term) === 0; j++) names.push('w' + j);
    return Promise.all(names.map(part)).then(function (got) {
      var hits = new Map();
      got.forEach(function (flat) {
        for (var k = 0; k + 1 < flat.length; k += 2) {
          var w = flat[k];
          if (term.length > 1 ? w.indexOf(term) !== 0 : w !== term) continue;
          var p = flat[k + 1], id = 0;
          for (var m = 0; m + 1 < p.length; m += 2) {
            id += p[m];
            var f = p[m + 1], old = hits.get(id);
            if (old === undefined || f % 3 > old % 3) hits.set(id, f);
          }
        }
      });
      return hits;
    });
  }
  var placeScore = [1, 6, 8]; /* in the extra text, a word of the title, the title's first */
  function search(q) {
    return load().then(function (meta) {
      var query = words(q, meta.max), terms = query.words;
      if (!terms.length) return [];
      return Promise.all(terms.map(function (t) { return lookup(meta, t); })).then(function (maps) {
        maps.sort(function (a, b) { return a.size - b.size; });
        var ranked = [];
        maps[0].forEach(function (f0, id) {
          var score = 0, inTitle = true, starts = false, f = f0;
          for (var i = 0; i < maps.length; i++) {
            if (i) { f = maps[i].get(id); if (f === undefined) return; }
            var place = f % 3;
            score += placeScore[place];
            if (place === 0) inTitle = false;
            if (place === 2) starts = true;
          }
          var kind = Math.floor(f0 / 3) % 4, length = Math.floor(f0 / 12);
          /* the title itself, likely: +6 for now, checked once its entry is loaded */
          var guess = inTitle && starts && length === query.length ? 6 : 0;
          ranked.push({ id: id, score: score + kindWeight[kind], rank: score + kindWeight[kind] + guess, length: length });
        });
        ranked.sort(function (a, b) { return b.rank - a.rank || a.length - b.length || a.id - b.id; });
        ranked = ranked.slice(0, FETCHED);
        var names = [];
        ranked.forEach(function (r) {
          var n = 'r' + Math.floor(r.id / meta.per);
          if (names.indexOf(n) < 0) names.push(n);
        });
        return Promise.all(names.map(part)).then(function () {
          var whole = norm(q).trim(), hits = [];
          ranked.forEach(function (r) {
            var e = parts['r' + Math.floor(r.id / meta.per)][r.id % meta.per];
            if (e) hits.push({ score: r.score + (norm(e[1]) === whole ? 6 : 0), e: e });
          });
          hits.sort(function (a, b) {
            return b.score - a.score || a.e[1].length - b.e[1].length || (a.e[1] < b.e[1] ? -1 : a.e[1] > b.e[1] ? 1 : 0);
          });
          return hits.slice(0, SHOWN).map(function (h) { return h.e; });
        });
      });
    });
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
  function show(q, results) {
    list.setAttribute('data-query', q);
    /* the query's words, as the index splits them, to mark */
    var terms = norm(q).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
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
      li.textContent = failed ? 'The search index could not be loaded.' : 'No results';
      list.appendChild(li);
    }
    if (status) status.textContent = has ? (results.length ? results.length + ' results' : 'No results') : '';
    setOpen(has);
  }
  function links() { return Array.prototype.slice.call(list.querySelectorAll('a')); }
  if (input && list) {
    /* results only for the query still typed: an older one may come later */
    var update = function () {
      var q = input.value;
      search(q).then(function (results) { failed = false; if (input.value === q) show(q, results); },
        function () { failed = true; if (input.value === q) show(q, []); });
    };
    input.addEventListener('focus', function () { load().catch(function () { failed = true; }); });
    input.addEventListener('click', function () { if (input.value.trim()) update(); });
    /* a query runs when typing pauses: the words parts it loads serve the
     * longer queries too, the records of its hits would not */
    var pause = 0;
    input.addEventListener('input', function () { clearTimeout(pause); pause = setTimeout(update, 90); });
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
