/// The report page's script, written one module a file in `Script/` and joined, in this order, into
/// the one inline script the page runs (and its Content-Security-Policy hashes): the page's state, the
/// scales and axes (as ``ChartScale``), the series' paths (as ``SeriesPath``), the charts, the view
/// every chart shares, the pointer and keys, saving a chart, the sections beside the time charts
/// (per-version toggles, gate links, the flame graph, the header's offset), and the page's start.
enum ReportScript {
  static let text: String = [
    PackageResources.report_prelude_js, PackageResources.report_scales_js, PackageResources.report_paths_js,
    PackageResources.report_charts_js, PackageResources.report_view_js, PackageResources.report_pointer_js,
    PackageResources.report_export_js, PackageResources.report_sections_js, PackageResources.report_page_js,
  ].map { String(decoding: $0, as: UTF8.self) }.joined()
}
