// The course site's page script: typesets math with KaTeX, runs the course search with MiniSearch,
// and, when the page is opened with ?selftest=1, writes what it sees into the page (and posts it
// to the parent frame) for the headless-browser test. Everything it loads is a local file.
(function () {
  'use strict';

  // Collected from the start so the self-test can report scripts that failed (charts included).
  var errors = [];
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) {
      errors.push('could not load ' + (t.src || t.href)); // a failed <script>, <link> or <img>
      return;
    }
    errors.push(String(e.message || e.type) + (e.filename ? ' at ' + e.filename : ''));
  }, true);

  function typesetMath() {
    if (!window.katex) {
      errors.push('KaTeX did not load');
      return;
    }
    document.querySelectorAll('.math').forEach(function (el) {
      katex.render(el.textContent, el, {
        displayMode: el.classList.contains('display'),
        throwOnError: false
      });
    });
  }

  // ---- search ----
  var engine = null;

  // The corpus is a script rather than JSON because browsers refuse fetch() of file:// URLs.
  function loadCorpus(done, failed) {
    if (window.COURSE_SEARCH) return done();
    var s = document.createElement('script');
    s.src = 'assets/search-index.js';
    s.onload = done;
    s.onerror = function () {
      errors.push('search index did not load');
      if (failed) failed();
    };
    document.head.appendChild(s);
  }

  // Chinese is written without spaces, so MiniSearch's default split would make a whole sentence
  // one term. Runs of Han characters are split into overlapping pairs instead (a single character
  // stays one term); other text splits on spaces and punctuation as before. Queries are split the
  // same way, so "策略梯度" finds pages holding 策略, 略梯 and 梯度.
  var HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
  function tokenize(text) {
    var out = [];
    text.split(/[\s\u3000-\u303f\uff00-\uffef\p{P}\p{S}]+/u).forEach(function (word) {
      (word.match(/[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g) || []).forEach(function (run) {
        if (!HAN.test(run[0])) return out.push(run);
        if (run.length === 1) return out.push(run);
        for (var i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
      });
    });
    return out.filter(function (t) { return t; });
  }
  function isHan(term) { return HAN.test(term); }

  function buildEngine() {
    var ms = new MiniSearch({
      fields: ['title', 'chapter', 'text'],
      storeFields: ['title', 'chapter', 'url', 'text'],
      tokenize: tokenize,
      // Fuzzy and prefix matching suit English words, not two-character Chinese terms.
      searchOptions: {
        boost: { title: 3, chapter: 1.5 }, combineWith: 'AND',
        prefix: function (term) { return !isHan(term); },
        fuzzy: function (term) { return isHan(term) ? false : 0.15; }
      }
    });
    ms.addAll(window.COURSE_SEARCH.docs);
    return ms;
  }

  function escapeHTML(s) {
    return s.replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  // A short excerpt around the first matched term, with the matched terms marked.
  function snippet(text, terms) {
    var lower = text.toLowerCase();
    var at = -1;
    terms.forEach(function (t) {
      var i = lower.indexOf(t.toLowerCase());
      if (i >= 0 && (at < 0 || i < at)) at = i;
    });
    var start = Math.max(0, at - 40);
    var part = text.slice(start, start + 110).replace(/\s+/g, ' ');
    var html = (start > 0 ? '… ' : '') + escapeHTML(part) + (start + 110 < text.length ? ' …' : '');
    terms.forEach(function (t) {
      if (!t) return;
      var re = new RegExp('(' + t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + ')', 'gi');
      html = html.replace(re, '<mark>$1</mark>');
    });
    return html;
  }

  function showResults(query) {
    var list = document.getElementById('search-results');
    if (!query.trim()) {
      list.hidden = true;
      return;
    }
    var hits = engine.search(query).slice(0, 12);
    if (!hits.length) {
      list.innerHTML = '<li class="none">' + escapeHTML(list.getAttribute('data-none') || 'No match in the course.') + '</li>';
    } else {
      list.innerHTML = hits.map(function (h) {
        // The chapter's opening section is titled like the chapter: name it once.
        var own = h.title && h.chapter.slice(-h.title.length) === h.title;
        var where = h.chapter + (h.title && !own ? ' · ' + h.title : '');
        return '<li><a href="' + escapeHTML(h.url) + '"><span class="where">' + escapeHTML(where) +
          '</span><span class="snip">' + snippet(h.text, h.terms) + '</span></a></li>';
      }).join('');
    }
    list.hidden = false;
  }

  function setUpSearch() {
    var input = document.getElementById('search-input');
    var list = document.getElementById('search-results');
    if (!input) return;
    function run() {
      if (engine) return showResults(input.value);
      loadCorpus(function () {
        if (!window.MiniSearch) {
          errors.push('MiniSearch did not load');
          return;
        }
        engine = engine || buildEngine();
        showResults(input.value);
      });
    }
    input.addEventListener('input', run);
    input.addEventListener('focus', run);
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Escape') {
        input.value = '';
        list.hidden = true;
      } else if (e.key === 'Enter') {
        var first = list.querySelector('a');
        if (first) window.location.href = first.getAttribute('href');
      } else if (e.key === 'ArrowDown') {
        var a = list.querySelector('a');
        if (a) { e.preventDefault(); a.focus(); }
      }
    });
    document.addEventListener('click', function (e) {
      if (!e.target.closest('.search')) list.hidden = true;
    });
  }

  // ---- self-test (headless browser check) ----
  function inkPixels(canvas) {
    var ctx = canvas.getContext('2d');
    if (!ctx || !canvas.width || !canvas.height) return 0;
    var d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    var n = 0;
    for (var i = 0; i < d.length; i += 4) {
      if (d[i + 3] > 0 && (d[i] < 235 || d[i + 1] < 235 || d[i + 2] < 235)) n++;
    }
    return n;
  }

  // How the KaTeX font faces the page asked for fared: loaded, or failed to load.
  function katexFonts() {
    var n = { loaded: 0, failed: 0 };
    if (!document.fonts) return n;
    document.fonts.forEach(function (f) {
      if (f.family.indexOf('KaTeX') < 0) return;
      if (f.status === 'loaded') n.loaded++;
      if (f.status === 'error') n.failed++;
    });
    return n;
  }

  function selfTest() {
    var r = {
      math: document.querySelectorAll('.math').length,
      mathRendered: document.querySelectorAll('.math > .katex, .math > .katex-display').length,
      mathErrors: document.querySelectorAll('.katex-error').length,
      katexFonts: katexFonts(),
      charts: [],
      nonLocalResources: performance.getEntriesByType('resource')
        .map(function (e) { return e.name; })
        .filter(function (u) { return u.indexOf('file:') !== 0; }),
      errors: errors
    };
    // Each chart's element holds its static picture until echarts replaces it with a canvas.
    document.querySelectorAll('.output .agentrl-chart').forEach(function (el) {
      var c = el.querySelector('canvas');
      r.charts.push(c ? { width: c.width, height: c.height, ink: inkPixels(c) } : { width: 0, height: 0, ink: 0 });
    });
    // Search the whole course for this chapter's name (on the index: the first chapter's), through
    // the same code the search box uses.
    var name = document.querySelector('.chapter-list a[aria-current] .name') ||
      document.querySelector('.chapter-list .name');
    var query = name ? name.textContent : '';
    function report() {
      var pre = document.createElement('pre');
      pre.id = 'selftest-result';
      pre.textContent = JSON.stringify(r);
      document.body.appendChild(pre);
      // A test page that opens every page in turn in a frame collects the results this way.
      if (window.parent !== window) window.parent.postMessage({ selftest: r }, '*');
    }
    loadCorpus(function () {
      if (window.MiniSearch) {
        engine = engine || buildEngine();
        var hits = engine.search(query);
        r.search = { query: query, hits: hits.length, top: hits.length ? hits[0].url : '' };
      }
      report();
    }, report);
  }

  document.addEventListener('DOMContentLoaded', function () {
    if (window.matchMedia && window.matchMedia('(max-width: 800px)').matches) {
      var chapters = document.querySelector('.chapters');
      if (chapters) chapters.open = false;
    }
    typesetMath();
    setUpSearch();
  });

  if (/[?&]selftest=1\b/.test(window.location.search)) {
    window.addEventListener('load', function () {
      var fontsReady = document.fonts ? document.fonts.ready : Promise.resolve();
      // Charts animate for about a second after load; let them finish (in virtual time).
      fontsReady.then(function () { setTimeout(selfTest, 3000); });
    });
  }
})();
