/// What a rule's breach does to the gate.
public enum Severity: String, Sendable, Hashable, CaseIterable {
  /// A regression or broken budget fails the gate (exit 1).
  case error
  /// Reported, but the gate still passes.
  case warning
}
