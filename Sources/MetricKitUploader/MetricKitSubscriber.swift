#if canImport(MetricKit)
  import Foundation
  import MetricKit

  /// The app's MetricKit subscriber: each payload or report MetricKit delivers is written to the queue
  /// first, then the queue is drained in the background. Register it once, early in the app's launch:
  ///
  /// ```swift
  /// let subscriber = MetricKitSubscriber(uploader: uploader)
  /// MXMetricManager.shared.add(subscriber)  // iOS 26 and earlier
  /// let manager = MetricManager()  // iOS 27: keep it for the app's life
  /// Task { await subscriber.receiveMetricReports(from: manager) }
  /// Task { await subscriber.receiveDiagnosticReports(from: manager) }
  /// ```
  public final class MetricKitSubscriber: NSObject, MXMetricManagerSubscriber, @unchecked Sendable {
    /// The uploader whose queue payloads are written to.
    public let uploader: Uploader

    /// A subscriber that queues payloads for `uploader`.
    public init(uploader: Uploader) {
      self.uploader = uploader
    }

    /// Queues MetricKit's metric payloads, then drains.
    public func didReceive(_ payloads: [MXMetricPayload]) {
      for payload in payloads { _ = try? uploader.queue.enqueue(payload.jsonRepresentation()) }
      drainSoon()
    }

    /// Queues MetricKit's diagnostic payloads, then drains.
    public func didReceive(_ payloads: [MXDiagnosticPayload]) {
      for payload in payloads { _ = try? uploader.queue.enqueue(payload.jsonRepresentation()) }
      drainSoon()
    }

    /// Queues MetricKit 27's daily metric reports as `manager` delivers them, until the calling task is
    /// cancelled. Run it in a long-lived task beside ``receiveDiagnosticReports(from:)``.
    @available(iOS 27, macOS 27, visionOS 27, *)
    public func receiveMetricReports(from manager: MetricManager) async {
      for await report in manager.metricReports { queue(report) }
    }

    /// Queues MetricKit 27's diagnostic reports as `manager` delivers them, until the calling task is
    /// cancelled.
    @available(iOS 27, macOS 27, visionOS 27, *)
    public func receiveDiagnosticReports(from manager: MetricManager) async {
      for await report in manager.diagnosticReports { queue(report) }
    }

    /// Queues a MetricKit 27 report as `JSONEncoder` writes it (keys sorted: the same report, the same
    /// bytes and id), then drains.
    private func queue(_ report: some Encodable) {
      _ = try? uploader.queue.enqueue(report: report)
      drainSoon()
    }

    /// Drains the queue without holding MetricKit's delivery thread.
    public func drainSoon() {
      let uploader = uploader
      Task.detached(priority: .background) { _ = try? await uploader.drain() }
    }
  }
#endif
