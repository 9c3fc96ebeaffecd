import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Gives frames their function, file and line from a ``SymbolIndex``, through one `llvm-symbolizer`
/// process shared by every thread of a run.
///
/// A frame is looked up at its binary's `__TEXT` address plus its ``CallStackTree/Frame/imageOffset``;
/// every frame but the innermost of a stack holds a return address, so it is looked up one byte
/// earlier (the call, not the line after it). Each (UUID, address) is asked once per run. Frames of
/// binaries without symbols are counted by binary, and frames without a UUID stay as they are.
public final class Symbolicator: Sendable {
  /// The symbols looked in.
  public let index: SymbolIndex
  /// The `llvm-symbolizer` used, nil when none was found.
  public let executable: String?
  private let state: Mutex<State>

  private struct Key: Hashable {
    var uuid: String
    var address: UInt64
  }

  private struct State {
    var process: LLVMSymbolizer?
    var cache: [Key: [FrameSymbol]] = [:]
    var report = SymbolicationReport()

    /// Symbols can no longer be had: said once, the process let go (and reaped).
    mutating func fail(_ error: LLVMSymbolizer.Failure) {
      report.symbolizerFailure = error.description
      process = nil
    }
  }

  /// A symbolicator over `index`, with `llvm-symbolizer` at `executable` (by default found by
  /// ``locateSymbolizer(environment:)``), each batch of its answers awaited at most `timeout` seconds.
  /// The process starts now, on this thread (when there are symbols to look in): on Linux the kernel
  /// ends it when this thread ends, so make the symbolicator on one that lives as long as the run.
  /// It is reaped when the symbolicator goes.
  public init(
    index: SymbolIndex, executable: String? = Symbolicator.locateSymbolizer(),
    timeout: Double = Symbolicator.defaultTimeout
  ) {
    self.index = index
    self.executable = executable
    var report = SymbolicationReport()
    report.problems = index.problems.map(\.description)
    report.available = index.images.mapValues { SymbolicationReport.SymbolFile(image: $0) }
    var state = State(report: report)
    if let executable, !index.isEmpty {
      // A symbolizer that dies would end this process with SIGPIPE on the next write; the write's
      // error is reported instead.
      signal(SIGPIPE, SIG_IGN)
      do throws(LLVMSymbolizer.Failure) {
        state.process = try LLVMSymbolizer(executable: executable, timeout: timeout)
      } catch {
        state.fail(error)
      }
    } else if !index.isEmpty {
      state.report.symbolizerMissing =
        "llvm-symbolizer was not found on PATH nor beside swift: frames are shown unsymbolicated"
    }
    self.state = Mutex(state)
  }

  /// Seconds a batch of the symbolizer's answers may take by default before it is taken for stalled.
  public static let defaultTimeout = LLVMSymbolizer.defaultTimeout

  /// `llvm-symbolizer` on `PATH`, else beside the `swift` found on `PATH`.
  public static func locateSymbolizer(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    LLVMSymbolizer.locate(environment: environment)
  }

  /// What was symbolicated, and what could not be.
  public var report: SymbolicationReport { state.withLock { $0.report } }

  /// Gives the frames of `tree` their symbols.
  public func symbolicate(_ tree: inout CallStackTree) {
    state.withLock { (state: inout State) -> Void in lookUp(&tree, &state) }
  }

  /// ``symbolicate(_:)`` with the lock held.
  private func lookUp(_ tree: inout CallStackTree, _ state: inout State) {
    // Which frames hold a return address: in a per-thread tree all but the roots (the innermost
    // frames); in an aggregated one, all that have callees.
    var queries: [(frame: Int, key: Key, image: MachOImage)] = []
    for i in tree.frames.indices {
      let frame = tree.frames[i]
      guard let uuid = frame.binaryUUID?.uppercased() else {
        state.report.framesWithoutUUID += 1
        continue
      }
      guard let image = index.image(uuid: uuid) else {
        state.report.countMissing(frame, uuid: uuid)
        continue
      }
      state.report.available[uuid]?.frames += 1
      // Without a symbolizer, the run's note says so once; the frames stay as they are.
      guard state.process != nil else { continue }
      let returnAddress: Bool = tree.callStackPerThread ? frame.depth > 0 : !frame.subFrames.isEmpty
      // An offset past the end of the address space names no place in the binary: not asked.
      let (sum, overflow) = image.textVMAddress.addingReportingOverflow(frame.imageOffset)
      guard !overflow else {
        state.report.unresolvedFrames += 1
        continue
      }
      var address: UInt64 = sum
      if returnAddress && address > 0 { address -= 1 }
      queries.append((frame: i, key: Key(uuid: uuid, address: address), image: image))
    }
    var missing: [LLVMSymbolizer.Query] = []
    var missingKeys: [Key] = []
    var asked = Set<Key>()
    for q in queries where state.cache[q.key] == nil && asked.insert(q.key).inserted {
      missing.append(LLVMSymbolizer.Query(image: q.image, address: q.key.address))
      missingKeys.append(q.key)
    }
    if !missing.isEmpty, let process = state.process {
      do throws(LLVMSymbolizer.Failure) {
        let answers = try process.symbols(missing)
        for (key, symbols) in zip(missingKeys, answers) { state.cache[key] = symbols }
      } catch {
        // Said once in the report; these frames stay as they are, not counted as resolving to nothing.
        state.fail(error)
        return
      }
    }
    for q in queries {
      let symbols: [FrameSymbol] = state.cache[q.key] ?? []
      tree.frames[q.frame].symbols = symbols
      if symbols.isEmpty { state.report.unresolvedFrames += 1 } else { state.report.symbolicatedFrames += 1 }
    }
  }
}
