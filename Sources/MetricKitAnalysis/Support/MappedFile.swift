#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A regular file's bytes mapped read-only into memory, read in place: reading them into an array has
/// the kernel zero fresh pages and then copy the file into them, a fifth of the time a run takes to
/// read a kept merge of tens of megabytes back. Unmapped when the last reference goes.
///
/// Only for files that are replaced, never rewritten in place (the cache writes a new file and renames
/// it over the old one): a file cut short in place while it is mapped would fault on its lost pages.
final class MappedFile: @unchecked Sendable {
  /// The file's bytes, as they were when mapped; valid while the object lives, never written.
  let bytes: UnsafeRawBufferPointer

  /// The regular file at `path` (not through a link), mapped; nil when there is none, it is not a
  /// regular file, or it cannot be mapped.
  init?(path: String) {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
    let size = Int(info.st_size)
    #if os(Linux)
      // Every page mapped at once, not one fault each.
      let flags = MAP_PRIVATE | MAP_POPULATE
    #else
      let flags = MAP_PRIVATE
    #endif
    guard let start = mmap(nil, size, PROT_READ, flags, fd, 0), start != MAP_FAILED else { return nil }
    bytes = UnsafeRawBufferPointer(start: start, count: size)
  }

  deinit {
    if let start = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: start), bytes.count) }
  }
}
