import Synchronization

/// How far a reading has got, counted by its threads as they go: for a progress line while a large
/// dump is read. A ``PayloadReader`` given one counts into it; nothing else changes.
public final class ReadingProgress: Sendable {
  private let filesToRead = Atomic<Int>(0)
  private let filesRead = Atomic<Int>(0)
  private let payloadsRead = Atomic<Int>(0)

  public init() {}

  /// What has been counted so far.
  public struct Count: Sendable, Equatable {
    /// Files read, of those a reading set out to read (a file read in parts counts with its first).
    public var filesRead: Int
    public var filesToRead: Int
    /// Metric payloads decoded.
    public var payloads: Int
  }

  /// The counts now (each read on its own: a moment's view, not a transaction).
  public var count: Count {
    Count(
      filesRead: filesRead.load(ordering: .relaxed), filesToRead: filesToRead.load(ordering: .relaxed),
      payloads: payloadsRead.load(ordering: .relaxed))
  }

  /// A reading is about to read `files` more files.
  func expect(files: Int) { filesToRead.add(files, ordering: .relaxed) }

  /// `files` files (or none, for a later part of one) were read, holding `payloads` metric payloads.
  func read(payloads: Int, files: Int) {
    filesRead.add(files, ordering: .relaxed)
    payloadsRead.add(payloads, ordering: .relaxed)
  }
}
