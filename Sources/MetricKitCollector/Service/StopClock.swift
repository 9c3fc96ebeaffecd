import Dispatch
import ServiceLifecycle
import Synchronization

/// When the stop began (uptime nanoseconds), once it has.
final class StopClock: Sendable {
  private let started = Atomic<UInt64>(0)

  /// The moment the stop began, if it has.
  var since: UInt64? {
    let value = started.load(ordering: .acquiring)
    return value == 0 ? nil : value
  }

  func stop() {
    _ = started.compareExchange(
      expected: 0, desired: DispatchTime.now().uptimeNanoseconds, ordering: .acquiringAndReleasing)
  }
}

/// Marks the moment a stop began: the first service of the group the stop reaches.
struct StopWatcher: Service {
  let clock: StopClock

  func run() async throws {
    try? await gracefulShutdown()
    clock.stop()
  }
}
