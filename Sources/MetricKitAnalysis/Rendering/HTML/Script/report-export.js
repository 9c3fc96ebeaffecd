  // ---- Saving a chart: its drawing as SVG or PNG, its points as CSV ----
  // The properties the page's style sheet gives the chart's elements, written on a copy as attributes:
  // the copy stands alone.
  var drawn = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray',
    'stroke-linecap', 'stroke-linejoin', 'opacity', 'font-size', 'font-family', 'text-anchor', 'paint-order',
    'visibility', 'display'];
  function chartSVG(figure) {
    var svg = figure.querySelector('svg.plot'), copy = svg.cloneNode(true);
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
    copy.removeAttribute('class');
    copy.removeAttribute('tabindex');
    copy.setAttribute('xmlns', SVG);
    copy.setAttribute('width', String(G.width));
    copy.setAttribute('height', String(G.height));
    var paper = make('rect', { width: String(G.width), height: String(G.height),
      fill: getComputedStyle(document.body).backgroundColor });
    copy.insertBefore(paper, copy.firstChild);
    return new XMLSerializer().serializeToString(copy);
  }
  // The PNG at twice the chart's size.
  function chartPNG(figure) {
    return new Promise(function (resolve, reject) {
      var url = URL.createObjectURL(new Blob([chartSVG(figure)], { type: 'image/svg+xml' }));
      var image = new Image();
      image.onload = function () {
        var canvas = document.createElement('canvas');
        canvas.width = G.width * 2;
        canvas.height = G.height * 2;
        var context = canvas.getContext('2d');
        context.scale(2, 2);
        context.drawImage(image, 0, 0, G.width, G.height);
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
    var name = (figure.getAttribute('data-chart') || figure.getAttribute('data-distribution') || figure.id) +
      (figure.getAttribute('data-statistic') ? '-' + figure.getAttribute('data-statistic') : '');
    name = name.replace(/[^A-Za-z0-9._-]+/g, '_') + '.' + format;
    var result = exportChart(figure.id, format);
    if (format === 'png') result.then(function (blob) { download(name, blob); });
    else download(name, new Blob([result], { type: format === 'svg' ? 'image/svg+xml' : 'text/csv' }));
  }

