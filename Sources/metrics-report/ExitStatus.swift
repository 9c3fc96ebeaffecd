import ArgumentParser

/// The exit codes beyond ArgumentParser's own (64 for usage errors).
enum ExitStatus {
  /// A regression at `error` severity: the gate fails.
  static let gateFailed = ExitCode(1)
  /// Nothing to evaluate, unreadable rules, or `--strict` with rejected inputs.
  static let cannotEvaluate = ExitCode(2)
}
