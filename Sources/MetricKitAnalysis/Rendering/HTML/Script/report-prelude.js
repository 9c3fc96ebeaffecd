// metrics-report: the report page's interaction. The charts are already drawn as static SVG; this adds
// synced zoom and pan (drag, presets, a custom range, ctrl-wheel, keys), a crosshair on every chart (by
// mouse or keys), a legend that hides versions and groups, a log value axis, saving a chart as SVG, PNG
// or CSV, and a URL fragment that reopens the same view. No network, no framework. The geometry, ticks and path
// reduction below mirror ChartScale.swift and SeriesPath.swift operation for operation.
(function () {
  'use strict';
  var root = document.documentElement;
  var errors = [];
  window.onerror = function (message, source, line, column) {
    errors.push(String(message) + ' (' + line + ':' + column + ')');
    root.setAttribute('data-report-errors', errors.join('\n'));
  };

  var SVG = 'http://www.w3.org/2000/svg';
  var DAY_MS = 86400000;
  var data, G, PW, PH, charts = [], view, hidden = {}, hiddenGroups = {}, logScale = false, scheduled = false;

