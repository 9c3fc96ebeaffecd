  // ---- The sections beside the time charts: the per-version view's toggles, gate links that show one
  // group, the flame graph's zoom, and section links that clear the sticky header ----

  // A per-version figure shows one statistic and one set of marks (all, or one group) at a time.
  function bindVersionViews() {
    Array.prototype.forEach.call(document.querySelectorAll('figure.version-view'), function (figure) {
      var statistics = figure.querySelector('.choice.statistics'), groups = figure.querySelector('.choice.groups');
      if (statistics) statistics.addEventListener('click', function (event) {
        var choice = event.target.getAttribute && event.target.getAttribute('data-choice');
        if (choice === null || choice === undefined) return;
        Array.prototype.forEach.call(figure.querySelectorAll('.statistic'), function (part, n) {
          part.hidden = String(n) !== choice;
        });
        press(statistics, 'data-choice', choice);
      });
      if (groups) groups.addEventListener('click', function (event) {
        var group = event.target.getAttribute && event.target.getAttribute('data-group');
        if (group === null || group === undefined) return;
        showGroupMarks(figure, group);
      });
    });
  }
  function press(container, attribute, value) {
    Array.prototype.forEach.call(container.querySelectorAll('button'), function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute(attribute) === value));
    });
  }
  // Shows the marks of `group` ('' for whole versions) in a per-version figure, with their headline.
  function showGroupMarks(figure, group) {
    Array.prototype.forEach.call(figure.querySelectorAll('g.marks'), function (g) {
      g.setAttribute('visibility', g.getAttribute('data-group') === group ? 'visible' : 'hidden');
    });
    Array.prototype.forEach.call(figure.querySelectorAll('p.headline[data-group]'), function (p) {
      p.hidden = p.getAttribute('data-group') !== group;
    });
    var choice = figure.querySelector('.choice.groups');
    if (choice) press(choice, 'data-group', group);
  }

  // A gate row of one group links to its chart with that group alone, in the legend and in the
  // per-version view.
  function bindGroupLinks() {
    document.addEventListener('click', function (event) {
      var link = event.target.closest && event.target.closest('a[data-solo-group]');
      if (!link) return;
      // The fragment keeps the view (the group alone), so the link scrolls rather than navigates.
      event.preventDefault();
      var target = document.getElementById(link.getAttribute('href').slice(1));
      if (target) target.scrollIntoView();
      var index = link.getAttribute('data-solo-group');
      data.groups.forEach(function (name, i) { if (String(i) === index) delete hiddenGroups[i]; else hiddenGroups[i] = true; });
      Array.prototype.forEach.call(document.querySelectorAll('.legend .group'), function (b) {
        b.setAttribute('aria-pressed', hiddenGroups[b.getAttribute('data-group-index')] ? 'false' : 'true');
      });
      Array.prototype.forEach.call(document.querySelectorAll('figure.version-view'), function (figure) {
        showGroupMarks(figure, data.groups[Number(index)]);
      });
      writeFragment();
      schedule();
    });
  }

  // The flame graph: a click on a frame makes it the whole width (its callers stay above it, full
  // width); a click on the top row shows everything again.
  function bindFlameGraph() {
    var svg = document.querySelector('svg.flame');
    if (!svg) return;
    var width = svg.viewBox.baseVal.width;
    var frames = svg.querySelectorAll('g.frame');
    Array.prototype.forEach.call(frames, function (g) {
      var rect = g.firstElementChild;
      g.x0 = Number(rect.getAttribute('x'));
      g.w0 = Number(rect.getAttribute('width'));
    });
    svg.addEventListener('click', function (event) {
      var g = event.target.closest && event.target.closest('g.frame');
      if (!g) return;
      var a = g.x0, b = g.x0 + g.w0, scale = width / (b - a);
      Array.prototype.forEach.call(frames, function (f) {
        var rect = f.firstElementChild, text = rect.nextElementSibling;
        var inside = f.contains(g) || g.contains(f);
        var x = inside ? (f.contains(g) && f !== g ? 0 : (f.x0 - a) * scale) : -1;
        var w = inside ? (f.contains(g) && f !== g ? width : f.w0 * scale) : 0;
        rect.setAttribute('x', coordinate(x));
        rect.setAttribute('width', coordinate(Math.max(0, w)));
        f.setAttribute('visibility', inside && w >= 0.5 ? 'visible' : 'hidden');
        if (text && text.tagName === 'text') text.setAttribute('x', coordinate(x + 3));
      });
      svg.setAttribute('data-zoom', g.getAttribute('data-label'));
    });
  }

  // The sticky header's height, kept as the page's scroll padding: a link's target lands below it.
  // Observed after each layout (never read during the page's start, which would lay the page out early).
  function keepTargetsClearOfHeader() {
    var header = document.querySelector('header.top');
    if (!header || !window.ResizeObserver) return;
    new ResizeObserver(function (entries) {
      var box = entries[0].borderBoxSize && entries[0].borderBoxSize[0];
      var height = box ? box.blockSize : entries[0].contentRect.height;
      var sticky = getComputedStyle(header).position === 'sticky';
      root.style.scrollPaddingTop = sticky ? Math.ceil(height + 8) + 'px' : '';
    }).observe(header);
  }
