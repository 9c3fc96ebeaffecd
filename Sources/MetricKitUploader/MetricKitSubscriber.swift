#if canImport(MetricKit)
  import Foundation
  import MetricKit

  /// The app's MetricKit subscriber: each payload MetricKit delivers is written to the queue first,
  /// then the queue is drained in the background. Register it once, early in the app's launch:
  ///
  /// ```swift
  /// let subscriber = try MetricKitSubscriber(uploader: uploader)
  /// MXMetricManager.shared.add(subscriber)
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

    /// Drains the queue without holding MetricKit's delivery thread.
    public func drainSoon() {
      let uploader = uploader
      Task.detached(priority: .background) { _ = try? await uploader.drain() }
    }
  }
#endif
