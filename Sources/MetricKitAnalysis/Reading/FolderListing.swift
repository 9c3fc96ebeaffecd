/// One folder as discovery listed it: the folder's own `stat`, and the name and `stat` of each
/// regular file in it, in sorted order (hidden files and files of other endings included: the
/// discovery taking it back sorts them). Only a folder of nothing but regular files and hidden
/// subfolders is listed this way: no subfolder to walk, no link, nothing unreadable.
struct FolderListing: Sendable, Equatable {
  /// The folder's own device, inode and times when it was listed: a file created, removed or renamed
  /// in it changes them.
  var status: FileStatus
  /// The files' names, one after the other, sorted byte-wise (a folder holds thousands: one buffer,
  /// not an array each).
  var pool: [UInt8] = []
  /// Where each name ends in `pool`.
  var ends: [Int] = []
  /// What one `stat` of each file said, in the order of the names.
  var statuses: [FileStatus] = []
  /// Whether each file had one link (one path) when listed.
  var singlyLinked = true

  init(status: FileStatus) { self.status = status }

  /// The number of files.
  var count: Int { ends.count }

  /// The name of file `i`.
  func name(_ i: Int) -> ArraySlice<UInt8> { pool[(i == 0 ? 0 : ends[i - 1])..<ends[i]] }

  /// Adds a file (its name sorting after every name before it).
  mutating func append(_ name: ArraySlice<UInt8>, _ status: FileStatus) {
    name.withUnsafeBytes { append($0, status) }
  }

  /// Adds a file whose name is read from memory (a kept listing), copied as one block.
  mutating func append(_ name: UnsafeRawBufferPointer, _ status: FileStatus) {
    pool.append(
      contentsOf: UnsafeBufferPointer(start: name.baseAddress?.assumingMemoryBound(to: UInt8.self), count: name.count))
    ends.append(pool.count)
    statuses.append(status)
  }

  /// Whether nothing in the folder had been modified for `period` nanoseconds at `now` (both in
  /// nanoseconds since 1970): neither the folder (a file created, removed or renamed) nor any file.
  func isSettled(at now: Int64, for period: Int64) -> Bool {
    status.modified <= now - period && statuses.allSatisfy { $0.modified <= now - period }
  }
}

/// Where discovery keeps the folders it listed that had stopped changing, and finds them again: a
/// folder whose own `stat` is still the one kept is taken as it was, without listing it or looking at
/// its files.
protocol FolderMemory: Sendable {
  /// The listing kept of `folder`, whatever its folder's `stat` now; nil when none is kept (or it
  /// cannot be read).
  func recalledListing(of folder: InputPath) -> FolderListing?
  /// Keeps `listing` of `folder` (best effort: without it, the next discovery lists the folder).
  func remember(_ listing: FolderListing, of folder: InputPath)
  /// The summary kept of `folder` for the reading this memory serves, whatever the folder's `stat`
  /// now; nil when none is kept (or it cannot be read).
  func summary(of folder: InputPath) -> FolderSummary?
  /// Keeps `summary` of `folder` (best effort: without it, the next discovery takes the folder's
  /// listing).
  func remember(_ summary: FolderSummary, of folder: InputPath)
}

extension FolderMemory {
  /// No summary: a memory of listings alone.
  func summary(of folder: InputPath) -> FolderSummary? { nil }
  func remember(_ summary: FolderSummary, of folder: InputPath) {}
}
