/// A folder that had stopped changing, as a reading made it out: how many files it reads and which
/// it passes over, the ranges of its files' identities, and the batches a reading through the cache
/// cut them into with each batch's key. Found again while the folder's own `stat` is unchanged, it
/// stands for the folder's files: none is named, looked at or keyed one by one.
struct FolderSummary: Sendable, Equatable {
  /// One batch of the folder's files: how many, and its key.
  struct Batch: Sendable, Equatable {
    var files: Int
    var key: String
  }

  /// The folder's own `stat` when it was summarized (that of its kept listing).
  var status: FileStatus
  /// The number of files read from it.
  var files: Int
  /// The names of the files passed over (not payload files, or hidden), in order.
  var ignored: [[UInt8]]
  /// Ranges that hold the files' identities (device and inode), ascending and apart: what tells,
  /// without the files, that none is also found elsewhere.
  var identities: [ClosedRange<FileIdentity>]
  /// Whether each file had one link (one path) when summarized: two folders of such files share none,
  /// whatever their ranges.
  var singlyLinked: Bool
  /// The batches, in order; their files add up to `files`.
  var batches: [Batch]

  /// Ranges that hold `identities`, ascending and apart: the runs that ascend in their order, those
  /// that overlap joined (a folder's files are mostly created in an order of their own, in a range of
  /// identities of their own: one range or a few).
  static func ranges(of identities: some Sequence<FileIdentity>) -> [ClosedRange<FileIdentity>] {
    var runs: [ClosedRange<FileIdentity>] = []
    for identity in identities {
      if let last = runs.last, last.upperBound < identity {
        runs[runs.count - 1] = last.lowerBound...identity
      } else {
        runs.append(identity...identity)
      }
    }
    runs.sort { $0.lowerBound < $1.lowerBound }
    var ranges: [ClosedRange<FileIdentity>] = []
    for run in runs {
      if let last = ranges.last, run.lowerBound <= last.upperBound {
        ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, run.upperBound)
      } else {
        ranges.append(run)
      }
    }
    return ranges
  }
}
