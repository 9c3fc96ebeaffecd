  // ---- Saving a chart: its drawing as SVG or PNG, its points as CSV ----
  // The properties the page's style sheet gives the chart's elements, written on a copy as attributes:
  // the copy stands alone.
  var drawn = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray',
    'stroke-linecap', 'stroke-linejoin', 'opacity', 'font-size', 'font-family', 'text-anchor', 'paint-order',
    'visibility', 'display'];
  // The plot shown in a figure (of a per-version view, the statistic in view).
  function plotOf(figure) {
    return figure.querySelector('.statistic:not([hidden]) svg.plot') || figure.querySelector('svg.plot');
  }
  // A saved chart stands alone: the plot under its title and unit, the app, the range or versions it
  // shows, and a legend of what is drawn; the date it was saved from at the bottom.
  function chartSVG(figure) {
    var svg = plotOf(figure), copy = svg.cloneNode(true);
    var originals = svg.querySelectorAll('*'), copies = copy.querySelectorAll('*'), dropped = [];
    for (var i = 0; i < originals.length; i++) {
      var style = getComputedStyle(originals[i]);
      // What only the page uses (the pointer's overlay, the selection, the crosshair) and what is hidden.
      if (originals[i].matches('.overlay, .selection, .crosshair') || style.visibility === 'hidden') {
        dropped.push(copies[i]);
        continue;
      }
      drawn.forEach(function (name) {
        var value = style.getPropertyValue(name);
        if (value && !copies[i].hasAttribute(name)) copies[i].setAttribute(name, value);
      });
      copies[i].removeAttribute('class');
    }
    dropped.forEach(function (e) { if (e.parentNode) e.parentNode.removeChild(e); });
    var box = svg.viewBox.baseVal, width = box.width, plotHeight = box.height;
    copy.removeAttribute('class');
    copy.removeAttribute('tabindex');
    copy.setAttribute('width', String(width));
    copy.setAttribute('height', String(plotHeight));
    var ink = getComputedStyle(document.body).color, muted = getComputedStyle(document.querySelector('.note') ||
      document.body).color;
    var legend = legendEntries(figure), legendRows = Math.ceil(legend.length / 5), top = 44;
    var height = top + plotHeight + legendRows * 16 + 22;
    var out = document.createElementNS(SVG, 'svg');
    out.setAttribute('xmlns', SVG);
    out.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    out.setAttribute('width', String(width));
    out.setAttribute('height', String(height));
    out.appendChild(make('rect', { width: String(width), height: String(height),
      fill: getComputedStyle(document.body).backgroundColor }));
    var heading = figure.querySelector('h3');
    var title = make('text', { x: '8', y: '18', 'font-size': '15', 'font-weight': 'bold', fill: ink,
      'font-family': 'system-ui, sans-serif' });
    title.textContent = heading ? heading.textContent.replace(/\s+/g, ' ').trim() : figure.id;
    out.appendChild(title);
    var app = document.querySelector('h1 .app'), context = [];
    if (app) context.push(app.textContent);
    if (figure.hasAttribute('data-x0')) context.push(isoDay(Math.round(view.x0)) + ' to ' + isoDay(Math.round(view.x1)));
    var statistic = figure.querySelector('.statistic:not([hidden])');
    if (statistic) context.push(statistic.getAttribute('data-statistic'));
    var subtitle = make('text', { x: '8', y: '36', 'font-size': '12', fill: muted, 'font-family': 'system-ui, sans-serif' });
    subtitle.textContent = context.join(' · ');
    out.appendChild(subtitle);
    copy.setAttribute('x', '0');
    copy.setAttribute('y', String(top));
    out.appendChild(copy);
    legend.forEach(function (entry, n) {
      var x = 8 + (n % 5) * (width - 16) / 5, y = top + plotHeight + 12 + Math.floor(n / 5) * 16;
      out.appendChild(make('line', { x1: String(x), x2: String(x + 20), y1: String(y - 4), y2: String(y - 4),
        stroke: entry.color, 'stroke-width': '3', 'stroke-dasharray': entry.dash || 'none' }));
      var label = make('text', { x: String(x + 25), y: String(y), 'font-size': '11', fill: ink,
        'font-family': 'system-ui, sans-serif' });
      label.textContent = entry.label;
      out.appendChild(label);
    });
    var foot = make('text', { x: String(width - 8), y: String(height - 6), 'font-size': '10', fill: muted,
      'text-anchor': 'end', 'font-family': 'system-ui, sans-serif' });
    var made = document.querySelector('.provenance');
    foot.textContent = made ? made.textContent.split(':')[0] : 'metrics-report';
    out.appendChild(foot);
    return new XMLSerializer().serializeToString(out);
  }
  // What the saved chart's legend lists: a time chart's visible series, else the figure's versions.
  function legendEntries(figure) {
    var chart = charts.filter(function (c) { return c.figure === figure; })[0];
    if (chart) {
      return chart.spec.series.filter(visible).map(function (s) {
        return { label: s.label, color: s.color, dash: s.dash };
      });
    }
    var seen = {}, entries = [];
    Array.prototype.forEach.call(figure.querySelectorAll('[data-version]'), function (mark) {
      var name = mark.getAttribute('data-version'), circle = mark.querySelector('circle, path, line');
      if (seen[name] || !circle) return;
      seen[name] = true;
      entries.push({ label: name, color: circle.getAttribute('fill') || circle.getAttribute('stroke'), dash: '' });
    });
    return entries;
  }
  // The PNG at twice the chart's size.
  function chartPNG(figure) {
    return new Promise(function (resolve, reject) {
      var url = URL.createObjectURL(new Blob([chartSVG(figure)], { type: 'image/svg+xml' }));
      var image = new Image();
      image.onload = function () {
        var canvas = document.createElement('canvas');
        canvas.width = image.width * 2;
        canvas.height = image.height * 2;
        var context = canvas.getContext('2d');
        context.scale(2, 2);
        context.drawImage(image, 0, 0, image.width, image.height);
        URL.revokeObjectURL(url);
        canvas.toBlob(function (blob) { if (blob) resolve(blob); else reject(new Error('no PNG')); }, 'image/png');
      };
      image.onerror = function () { URL.revokeObjectURL(url); reject(new Error('the chart did not draw')); };
      image.src = url;
    });
  }
  // A CSV cell: quoted when it must be; text that a spreadsheet would run as a formula starts with '.
  function cell(value) {
    var text = String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = "'" + text;
    return /[",\n\r]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }
  // Every point of the chart: one row per series and interval, every series, hidden or not.
  function chartCSV(spec) {
    var share = spec.kind === 'stack';
    var rows = [['series', 'version', 'group', 'interval_start', share ? 'share' : 'value', 'lower', 'upper', 'payloads']];
    spec.series.forEach(function (s) {
      for (var i = 0; i < s.d.length; i++) {
        rows.push([s.label, data.versions[s.v].name, s.g === undefined ? '' : data.groups[s.g], isoDay(s.d[i]),
          s.y[i], s.lo ? s.lo[i] : '', s.hi ? s.hi[i] : '', s.n[i]].map(cell));
      }
    });
    return rows.map(function (r) { return r.join(','); }).join('\n') + '\n';
  }
  // What a save button gives: a string (SVG, CSV) or a promise of a PNG blob.
  function exportChart(id, format) {
    var figure = document.getElementById(id);
    if (!figure) throw new Error('no chart ' + id);
    if (format === 'svg') return chartSVG(figure);
    if (format === 'png') return chartPNG(figure);
    var chart = charts.filter(function (c) { return c.spec.id === id; })[0];
    if (format === 'csv' && chart) return chartCSV(chart.spec);
    throw new Error('cannot save ' + id + ' as ' + format);
  }
  function download(name, blob) {
    var link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
  }
  function save(figure, format) {
    var name = (figure.getAttribute('data-chart') || figure.getAttribute('data-distribution') ||
      figure.getAttribute('data-metric') || figure.id) +
      (figure.getAttribute('data-statistic') ? '-' + figure.getAttribute('data-statistic') : '');
    name = name.replace(/[^A-Za-z0-9._-]+/g, '_') + '.' + format;
    var result = exportChart(figure.id, format);
    if (format === 'png') result.then(function (blob) { download(name, blob); });
    else download(name, new Blob([result], { type: format === 'svg' ? 'image/svg+xml' : 'text/csv' }));
  }

