/// What a pooled rate's numerators are, which decides its interval and the test that compares it.
public enum RateCounting: Sendable, Hashable {
  /// An amount over an exposure (hang seconds per foreground hour): a ratio estimator, its variance
  /// by linearization over payloads.
  case amount
  /// Whole events over an exposure in thousands of hours (terminations per 1,000 foreground hours):
  /// a Poisson rate whose variance is inflated by the events' dispersion over device-days (a crash
  /// loop is one device-day with a dozen terminations).
  case events
  /// Device-days without an event, in percent of device-days (crash-free device-days): a binomial
  /// share, each payload 100 or 0 over 1.
  case eventFreeDays
}
