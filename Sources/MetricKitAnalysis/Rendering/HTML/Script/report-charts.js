  // ---- Charts ----
  function make(name, attributes, parent) {
    var el = document.createElementNS(SVG, name);
    for (var key in attributes) el.setAttribute(key, attributes[key]);
    if (parent) parent.appendChild(el);
    return el;
  }
  function visible(series) { return !hidden[series.v] && !(series.g !== undefined && hiddenGroups[series.g]); }
  function hiddenKey() { return Object.keys(hidden).join(',') + '/' + Object.keys(hiddenGroups).join(','); }

  function Chart(spec, figure) {
    var self = this;
    this.spec = spec;
    this.figure = figure;
    this.svg = figure.querySelector('svg.plot');
    // The crosshair's values are drawn on a canvas (changing it lays nothing out and repaints only
    // it); the same words go to a hidden live region while the chart has the keyboard.
    this.readout = figure.querySelector('canvas.readout');
    this.readoutText = figure.querySelector('.readout-text');
    this.readoutWords = '';
    this.yAxis = this.svg.querySelector('.axis.y');
    this.xAxis = this.svg.querySelector('.axis.x');
    this.crosshair = figure.querySelector('.crosshair');
    // The crosshair spans the plot's height (its place along the plot is a transform).
    this.crosshair.style.top = coordinate(G.top / G.height * 100) + '%';
    this.crosshair.style.height = coordinate(PH / G.height * 100) + '%';
    this.selection = this.svg.querySelector('.selection');
    this.releases = Array.prototype.slice.call(this.svg.querySelectorAll('.release'));
    this.changes = Array.prototype.slice.call(this.svg.querySelectorAll('.change'));
    this.paths = {};
    ['band', 'line', 'marker', 'area', 'offscale'].forEach(function (kind) {
      self.paths[kind] = {};
      Array.prototype.forEach.call(self.svg.querySelectorAll('path.' + kind), function (p) {
        self.paths[kind][p.getAttribute('data-series')] = p;
      });
    });
    spec.series.forEach(function (s) {
      s.breakAt = {};
      s.b.forEach(function (i) { s.breakAt[i] = true; });
    });
    // Apple's Organizer values (a level per version) and goal bands, when the page has them.
    this.apple = Array.prototype.slice.call(this.svg.querySelectorAll('path.apple'));
    this.goals = Array.prototype.slice.call(this.svg.querySelectorAll('rect.goal'));
    this.key = null;
    this.scale = null;
    this.onscreen = true;  // until an IntersectionObserver says otherwise
  }

  // The scale of the current view: the value axis fitted to the visible series in range, their sparse
  // points left out while a denser one is there (as ChartData.extent).
  Chart.prototype.fit = function () {
    var spec = this.spec, x0 = view.x0, x1 = view.x1, axis;
    if (spec.kind === 'stack') {
      axis = { bottom: 0, top: 1, step: 0.25, ticks: [0, 0.25, 0.5, 0.75, 1] };
    } else {
      var dense = null, all = null;
      var include = function (range, v) { return range ? [Math.min(range[0], v), Math.max(range[1], v)] : [v, v]; };
      spec.series.forEach(function (s) {
        if (!visible(s)) return;
        for (var i = 0; i < s.d.length; i++) {
          if (s.d[i] < x0 || s.d[i] > x1) continue;
          all = include(all, s.y[i]);
          if (s.n[i] >= data.minPayloads) dense = include(dense, s.y[i]);
        }
      });
      var range = dense || all;
      (spec.apple || []).forEach(function (a) {
        if (!hidden[a.v] && a.d1 >= x0 && a.d0 <= x1) range = include(range, a.y);
      });
      // Log only where it means something: durations and sizes, every value in view above 0.
      var positive = range && range[0] > 0 && isFinite(range[1]) && (!all || all[0] > 0);
      axis = logScale && !spec.zero && positive ? logAxis(range[0], range[1])
        : range ? valueAxis(range[0], range[1], spec.zero) : valueAxis(0, 0, spec.zero);
    }
    this.figure.setAttribute('data-scale', axis.log ? 'log' : 'linear');
    this.scale = new Scale(x0, x1, axis.bottom, axis.top, axis.log);
    return axis;
  };

  Chart.prototype.viewKey = function () { return view.x0 + '|' + view.x1 + '|' + hiddenKey() + '|' + logScale; };

  Chart.prototype.render = function (force) {
    var key = this.viewKey();
    if (!force && key === this.key) return false;
    this.key = key;
    var x0 = view.x0, x1 = view.x1;
    var axis = this.fit();
    var scale = this.scale;
    this.drawAxes(scale, axis);
    if (this.spec.kind === 'stack') this.drawStack(scale); else this.drawLines(scale);
    this.drawOrganizer(scale, axis);
    // Release labels in rows, as SVGChart.labelRows: the first row whose last label ends before this
    // one, among four; a label with no room is hidden (its marker stays). Hidden versions take none.
    var ends = [-Infinity, -Infinity, -Infinity, -Infinity];
    var ordered = this.releases.map(function (g, i) { return [Number(g.getAttribute('data-day')), i, g]; });
    ordered.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    ordered.forEach(function (entry) {
      var day = entry[0], g = entry[2], x = scale.x(day);
      var shown = day >= x0 && day <= x1 && !hidden[g.getAttribute('data-version-index')];
      g.setAttribute('visibility', shown ? 'visible' : 'hidden');
      var line = g.querySelector('line'), text = g.querySelector('text');
      line.setAttribute('x1', coordinate(x));
      line.setAttribute('x2', coordinate(x));
      text.setAttribute('x', coordinate(x + 3));
      var row = -1;
      if (shown && x >= G.left && x <= G.width - G.right) {
        for (var r = 0; r < ends.length; r++) if (ends[r] <= x) { row = r; break; }
      }
      if (row >= 0) {
        ends[row] = x + 3 + text.textContent.length * 6 + 6;
        text.setAttribute('y', coordinate(G.top + 9 + row * 12));
      }
      text.setAttribute('visibility', row >= 0 ? 'inherit' : 'hidden');
    });
    // The changes watch found, as SVGChart.changeMarks: a line on the day, the label after it (before
    // it near the right edge); one version's change is hidden with the version.
    this.changes.forEach(function (g) {
      var day = Number(g.getAttribute('data-day')), x = scale.x(day), v = g.getAttribute('data-version-index');
      var shown = day >= x0 && day <= x1 && !(v !== null && hidden[v]);
      g.setAttribute('visibility', shown ? 'visible' : 'hidden');
      var line = g.querySelector('line'), text = g.querySelector('text');
      line.setAttribute('x1', coordinate(x));
      line.setAttribute('x2', coordinate(x));
      var end = x + 3 + text.textContent.length * 6 + 6 > G.width - G.right;
      text.setAttribute('x', coordinate(end ? x - 3 : x + 3));
      if (end) text.setAttribute('class', 'end'); else text.removeAttribute('class');
    });
    this.figure.setAttribute('data-x0', coordinate(x0));
    this.figure.setAttribute('data-x1', coordinate(x1));
    return true;
  };

  Chart.prototype.drawAxes = function (scale, axis) {
    var y = this.yAxis, x = this.xAxis, percent = this.spec.kind === 'stack';
    while (y.firstChild) y.removeChild(y.firstChild);
    while (x.firstChild) x.removeChild(x.firstChild);
    axis.ticks.forEach(function (t) {
      var ty = coordinate(scale.y(t));
      make('line', { 'class': 'grid', x1: coordinate(G.left), x2: coordinate(G.width - G.right), y1: ty, y2: ty }, y);
      make('text', { x: coordinate(G.left - 6), y: ty, dy: '4' }, y).textContent =
        percent ? Math.round(t * 100) + '%' : valueLabel(t, axis.log ? powerOfTen(Math.floor(Math.log10(t) + 1e-9)) : axis.step);
    });
    var base = coordinate(G.top + PH), tickEnd = coordinate(G.top + PH + 4), labelY = coordinate(G.height - 6);
    dayTicks(view.x0, view.x1).forEach(function (tick) {
      var px = scale.x(tick[0]), tx = coordinate(px);
      make('line', { 'class': 'tick', x1: tx, x2: tx, y1: base, y2: tickEnd }, x);
      // As ChartScale.labelPlacement: a label that would pass the right edge ends inside it.
      var end = px + tick[1].length * 3.3 > G.width - 1;
      var attributes = { x: end ? coordinate(G.width - 1) : tx, y: labelY };
      if (end) attributes['class'] = 'end';
      make('text', attributes, x).textContent = tick[1];
    });
  };

  Chart.prototype.drawLines = function (scale) {
    var self = this, x0 = view.x0, x1 = view.x1, minPayloads = data.minPayloads;
    this.spec.series.forEach(function (s, index) {
      var line = self.paths.line[index], band = self.paths.band[index], marker = self.paths.marker[index];
      var offscale = self.paths.offscale[index];
      if (!visible(s)) {
        [line, band, marker, offscale].forEach(function (p) { if (p) p.setAttribute('d', ''); });
        return;
      }
      // The points in range, and one beyond each side so that lines reach the edges.
      var i0 = Math.max(0, lowerBound(s.d, x0) - 1);
      var i1 = Math.min(s.d.length - 1, lowerBound(s.d, x1 + 1e-9));
      var xs = [], ys = [], up = [], low = [], marked = [];
      for (var i = 0; i < s.d.length; i++) {
        if (i < i0 || i > i1) continue;
        xs[i] = scale.x(s.d[i]);
        ys[i] = scale.y(s.y[i]);
        if (s.lo) { up[i] = scale.y(s.hi[i]); low[i] = scale.y(s.lo[i]); }
        if (s.n[i] < minPayloads) marked.push(i);
      }
      var segs = segments(s.breakAt, i0, i1);
      line.setAttribute('d', linePath(xs, ys, segs));
      if (band) band.setAttribute('d', s.lo ? bandPath(xs, up, low, segs) : '');
      if (marker) marker.setAttribute('d', markerPath(xs, ys, marked));
      if (offscale) offscale.setAttribute('d', offscalePath(s, scale));
    });
  };

  // As SVGChart.offscalePath: a notch at the plot's edge for each point beyond the value axis.
  function offscalePath(s, scale) {
    var d = '', c = coordinate, top = G.top, bottom = G.top + PH;
    for (var i = 0; i < s.d.length; i++) {
      var v = s.y[i];
      if (!(v > scale.y1 || v < scale.y0)) continue;
      var x = scale.x(s.d[i]);
      if (x < G.left || x > G.width - G.right) continue;
      var edge = v > scale.y1 ? top : bottom, base = v > scale.y1 ? edge + 6 : edge - 6;
      d += 'M' + c(x - 4) + ' ' + c(base) + 'L' + c(x) + ' ' + c(edge) + 'L' + c(x + 4) + ' ' + c(base) + 'Z';
    }
    return d;
  }

  // Apple's goal bands across the plot, and each version's Apple value as a level over its intervals.
  Chart.prototype.drawOrganizer = function (scale, axis) {
    var spec = this.spec, x0 = view.x0, x1 = view.x1;
    var left = G.left, right = G.width - G.right;
    this.goals.forEach(function (rect) {
      var goal = spec.goals[Number(rect.getAttribute('data-goal'))];
      var top = scale.y(Math.min(goal.hi === null ? axis.top : goal.hi, axis.top));
      var bottom = scale.y(Math.max(goal.lo === null ? axis.bottom : goal.lo, axis.bottom));
      rect.setAttribute('y', coordinate(Math.min(top, bottom)));
      rect.setAttribute('height', coordinate(Math.max(0, bottom - top)));
    });
    this.apple.forEach(function (path) {
      var a = spec.apple[Number(path.getAttribute('data-apple'))];
      var shown = !hidden[a.v] && a.d1 >= x0 && a.d0 <= x1;
      path.setAttribute('visibility', shown ? 'visible' : 'hidden');
      if (!shown) return;
      var xa = Math.min(Math.max(scale.x(a.d0), left), right), xb = Math.min(Math.max(scale.x(a.d1), left), right);
      var y = scale.y(a.y), c = coordinate;
      path.setAttribute('d', 'M' + c(xa) + ' ' + c(y) + 'H' + c(xb) + 'M' + c(xb - 6) + ' ' + c(y) + 'L' + c(xb) + ' ' +
        c(y - 6) + 'L' + c(xb + 6) + ' ' + c(y) + 'L' + c(xb) + ' ' + c(y + 6) + 'Z');
    });
  };

  Chart.prototype.drawStack = function (scale) {
    var self = this, x0 = view.x0, x1 = view.x1, seen = {}, days = [];
    this.spec.series.forEach(function (s) {
      if (!visible(s)) return;
      s.d.forEach(function (d) { if (!seen[d] && d >= x0 - 40 && d <= x1 + 40) { seen[d] = true; days.push(d); } });
    });
    days.sort(function (a, b) { return a - b; });
    var position = {};
    days.forEach(function (d, i) { position[d] = i; });
    var cumulative = days.map(function () { return 0; });
    this.spec.series.forEach(function (s, index) {
      var path = self.paths.area[index];
      if (!path) return;
      if (!visible(s) || !days.length) { path.setAttribute('d', ''); return; }
      var first = lowerBound(days, s.d[0]), last = lowerBound(days, s.d[s.d.length - 1] + 1e-9) - 1;
      if (first > last) { path.setAttribute('d', ''); return; }
      first = Math.max(0, first - 1);
      last = Math.min(days.length - 1, last + 1);
      var share = days.map(function () { return 0; });
      for (var k = 0; k < s.d.length; k++) if (position[s.d[k]] !== undefined) share[position[s.d[k]]] = s.y[k];
      var top = [], bottom = [], lastColumn = null;
      for (var i = first; i <= last; i++) {
        var lower = cumulative[i];
        cumulative[i] += share[i];
        var x = scale.x(days[i]);
        if (Math.floor(x) === lastColumn) continue;
        lastColumn = Math.floor(x);
        top.push([x, scale.y(cumulative[i])]);
        bottom.push([x, scale.y(lower)]);
      }
      var d = '';
      for (var n = 0; n < top.length; n++) {
        d += (n === 0 ? 'M' : n === 1 ? 'L' : ' ') + coordinate(top[n][0]) + ' ' + coordinate(top[n][1]);
      }
      for (n = bottom.length - 1; n >= 0; n--) d += ' ' + coordinate(bottom[n][0]) + ' ' + coordinate(bottom[n][1]);
      path.setAttribute('d', d + 'Z');
    });
  };

  var intervalDays = { day: 1, week: 7, month: 31 };

  // The point of a series whose interval holds `day`.
  function pointAt(s, day) {
    var i = lowerBound(s.d, day + 1e-9) - 1;
    if (i < 0 || day - s.d[i] >= intervalDays[data.interval]) return -1;
    if (data.interval === 'month' && i + 1 < s.d.length && s.d[i + 1] <= day) return -1;
    return i;
  }

  Chart.prototype.showCursor = function (day) {
    var readout = this.readout;
    if (day === null || !this.scale) {
      this.crosshair.hidden = true;
      if (readout && this.readoutKey !== null) {
        this.drawReadout(null);
        this.readoutWords = '';
        if (this.focused) this.readoutText.textContent = '';
      }
      this.readoutKey = null;
      return;
    }
    // A chart off the screen keeps its old crosshair and values until it is seen (the observer of
    // charts in view calls this again then): updating what nobody sees would cost as much as
    // updating what is seen.
    if (!this.onscreen) {
      this.readoutKey = null;
      return;
    }
    var x = this.scale.x(day);
    // A transform only: the compositor moves the line, nothing is laid out or painted again.
    this.crosshair.style.transform = 'translateX(' + coordinate(x / G.width * 100) + '%)';
    this.crosshair.hidden = !(x >= G.left && x <= G.width - G.right);
    if (!readout) return;
    // The values change only when the cursor enters another interval (or versions are hidden):
    // moves within one interval only move the crosshair and, at most, the box.
    var key = intervalLabel(day) + '|' + hiddenKey();
    if (key !== this.readoutKey) {
      this.readoutKey = key;
      this.fillReadout(day);
    }
    // Over the plot's top, on the side away from the cursor: placed in percent of the plot area, so
    // that nothing is measured (a move reads no layout).
    var side = x > G.left + PW / 2 ? 'left' : 'right';
    if (side !== this.readoutSide) {
      this.readoutSide = side;
      readout.style.left = side === 'left' ? coordinate((G.left + 4) / G.width * 100) + '%' : '';
      readout.style.right = side === 'right' ? coordinate((G.right + 4) / G.width * 100) + '%' : '';
    }
  };

  // The most rows a readout lists: beyond them it says how many more there are (each is in the data
  // table and the CSV), so that the box stays small over the plot whatever the number of series.
  var readoutRows = 8, lineHeight = 16, readoutFont = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  // The readout's values at `day`: the interval, then a row per visible series with a point there, the
  // versions in view before older ones and larger samples first, listed from the highest value down.
  Chart.prototype.fillReadout = function (day) {
    var spec = this.spec;
    var unit = spec.unit === 'count' || spec.unit === 'share' ? '' : ' ' + spec.unit;
    var rows = [];
    spec.series.forEach(function (s) {
      if (!visible(s)) return;
      var i = pointAt(s, day);
      if (i >= 0) rows.push({ s: s, i: i });
    });
    rows.sort(function (a, b) { return (a.s.older ? 1 : 0) - (b.s.older ? 1 : 0) || b.s.n[b.i] - a.s.n[a.i]; });
    var shown = rows.slice(0, readoutRows);
    shown.sort(function (a, b) { return b.s.y[b.i] - a.s.y[a.i]; });
    var lines = [{ text: intervalLabel(day) }];
    shown.forEach(function (row) {
      var s = row.s, i = row.i, text = s.label + ' ';
      if (spec.kind === 'stack') {
        text += number(s.y[i] * 100) + '% (' + s.n[i] + ' payloads)';
      } else {
        text += number(s.y[i]) + unit;
        if (s.lo) text += ' [' + number(s.lo[i]) + '–' + number(s.hi[i]) + ']';
        text += ' n=' + s.n[i] + (s.n[i] < data.minPayloads ? ' (sparse)' : '');
      }
      lines.push({ text: text, color: s.color });
    });
    if (rows.length > shown.length) {
      lines.push({ text: 'and ' + (rows.length - shown.length) + ' more (hide versions or groups in the legend)', muted: true });
    }
    this.readoutWords = lines.map(function (l) { return l.text; }).join(' · ');
    if (this.focused) this.readoutText.textContent = this.readoutWords;
    this.drawReadout(lines);
  };
  // Draws the readout's lines (none: clears it) in a box at the canvas' top.
  Chart.prototype.drawReadout = function (lines) {
    var canvas = this.readout, ratio = window.devicePixelRatio || 1;
    if (!canvas.cssWidth) sizeReadout(this);
    if (!readoutColors.ink) readColors();
    var width = canvas.cssWidth, context = canvas.getContext('2d');
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, canvas.cssHeight);
    if (!lines || !lines.length) return;
    var height = lines.length * lineHeight + 6;
    context.fillStyle = readoutColors.paper;
    context.strokeStyle = readoutColors.rule;
    context.lineWidth = 1;
    context.beginPath();
    context.rect(0.5, 0.5, width - 1, height - 1);
    context.fill();
    context.stroke();
    context.font = readoutFont;
    context.textBaseline = 'middle';
    lines.forEach(function (line, n) {
      var y = 3 + n * lineHeight + lineHeight / 2, x = 6;
      if (line.color) {
        context.fillStyle = line.color;
        context.beginPath();
        context.arc(x + 4, y, 4, 0, 2 * Math.PI);
        context.fill();
        x += 12;
      }
      context.fillStyle = line.muted ? readoutColors.muted : readoutColors.ink;
      context.fillText(fitted(context, line.text, width - x - 6), x, y);
    });
  };
  // `text`, cut to `width` pixels with an ellipsis.
  function fitted(context, text, width) {
    if (context.measureText(text).width <= width) return text;
    var low = 0, high = text.length;
    while (low < high) {
      var middle = (low + high + 1) >> 1;
      if (context.measureText(text.slice(0, middle) + '…').width <= width) low = middle; else high = middle - 1;
    }
    return text.slice(0, low) + '…';
  }
  // The page's colours for readouts, read from its style on the first readout (not during the page's
  // start, where reading a computed style would work the whole page's style out early), and again when
  // the colour scheme changes.
  var readoutColors = {};
  function readColors() {
    var style = getComputedStyle(root);
    ['ink', 'muted', 'rule'].forEach(function (name) { readoutColors[name] = style.getPropertyValue('--' + name).trim(); });
    readoutColors.paper = getComputedStyle(document.querySelector('.readout') || document.body)
      .getPropertyValue('--readout-paper').trim() || 'rgba(255, 255, 255, 0.94)';
  }
  // A readout canvas' backing store at the device's resolution (read once, and on resizing).
  function sizeReadout(chart) {
    var canvas = chart.readout, box = canvas.getBoundingClientRect(), ratio = window.devicePixelRatio || 1;
    canvas.cssWidth = Math.max(1, box.width);
    canvas.cssHeight = Math.max(1, box.height);
    canvas.width = Math.round(canvas.cssWidth * ratio);
    canvas.height = Math.round(canvas.cssHeight * ratio);
  }

