import Foundation

/// What the diagnostics report and the diagnostic gate rules need about one app version.
public struct DiagnosticAggregate: Sendable {
  /// Diagnostics of one signature.
  public struct Group: Sendable {
    /// The signature.
    public var signature: DiagnosticSignature
    /// The kind.
    public var kind: DiagnosticKind
    /// How many.
    public var count: Int
    /// The earliest payload period start among them (nil for diagnostics written without a payload).
    public var firstSeen: Date?
    /// The latest payload period end among them.
    public var lastSeen: Date?
    /// Exception details of the first one (crashes).
    public var exceptionName: String?
    /// The signal's name.
    public var signalName: String?
    /// The exception code.
    public var exceptionCode: Int?
    /// The termination reason of the first one.
    public var terminationReason: String?
    /// The Objective-C exception name and message of the first one.
    public var objectiveCException: String?
    /// The hang type (hangs).
    public var hangType: String?
    /// The culprit frame (``Diagnostic/culpritFrame(appBinaries:)``), innermost symbol, of the
    /// diagnostic whose frames come first in byte order: members may differ in offsets (a rebuild), and
    /// the one shown must not depend on the order they were read.
    public var culprit: DiagnosticFrame?
    /// That diagnostic's frames of the signature, as shown.
    public var frames: [DiagnosticFrame] = []
    /// That diagnostic's whole stack: the attributed thread's heaviest path, innermost first, each
    /// frame as shown (a symbolicated frame with the functions inlined into it), at most
    /// ``DiagnosticAggregate/stackLimit`` frames.
    public var stack: [DiagnosticFrame] = []

    /// Keeps `culprit`, `frames` and `stack` when they come before this group's in byte order of
    /// their labels.
    mutating func keepFirst(
      culprit other: DiagnosticFrame?, frames otherFrames: [DiagnosticFrame], stack otherStack: [DiagnosticFrame]
    ) {
      let mine = frames.map(\.label) + [culprit?.label ?? ""] + stack.map(\.label)
      let theirs = otherFrames.map(\.label) + [other?.label ?? ""] + otherStack.map(\.label)
      guard theirs.lexicographicallyPrecedes(mine, by: { $0.precedesBytewise($1) }) else { return }
      culprit = other
      frames = otherFrames
      stack = otherStack
    }
  }

  /// The most frames of a group's ``Group/stack``.
  public static let stackLimit = 128

  /// The app version.
  public let version: String
  /// Diagnostic payloads (device-days) with a diagnostic of this version.
  public internal(set) var payloadCount = 0
  /// Diagnostics by kind.
  public internal(set) var counts: [DiagnosticKind: Int] = [:]
  /// Groups by signature identifier.
  public internal(set) var groups: [String: Group] = [:]
  /// Hang durations, seconds.
  public internal(set) var hangDurations = ScalarSample()
  /// Hangs by `hangType`.
  public internal(set) var hangTypes: [String: Int] = [:]
  /// CPU time of CPU exceptions, seconds.
  public internal(set) var cpuTimes = ScalarSample()
  /// Writes of disk-write exceptions, MB.
  public internal(set) var writes = ScalarSample()
  /// Launch durations of launch diagnostics, seconds.
  public internal(set) var launchDurations = ScalarSample()
  /// Collapsed stacks under one node per diagnostic kind, with their sample counts, when recorded.
  public internal(set) var foldedStacks: FoldedStacks

  /// Creates an empty aggregate; `maximumFoldedDepth` bounds the call frames of a collapsed stack.
  public init(version: String, maximumFoldedDepth: Int = FoldedStacks.defaultMaximumDepth) {
    self.version = version
    // One level more: the kind's node comes first.
    foldedStacks = FoldedStacks(maximumDepth: maximumFoldedDepth + 1)
  }

  /// Adds one diagnostic from a payload covering `begin`–`end`; `countingPayload` when it is the
  /// payload's first diagnostic of this version.
  public mutating func add(
    _ d: Diagnostic, begin: Date?, end: Date?, options: DiagnosticOptions, countingPayload: Bool = false
  ) {
    if countingPayload { payloadCount += 1 }
    counts[d.kind, default: 0] += 1
    var d = d
    if let symbolicator = options.symbolicator, d.callStackTree != nil { symbolicator.symbolicate(&d.callStackTree!) }
    // The heaviest path walked once, for the signature, its frames and the culprit.
    let path = d.attributedPath
    let signatureFrames = DiagnosticSignature.frames(on: path)
    let signature = DiagnosticSignature(d, frames: signatureFrames, appBinaries: options.appBinaries)
    let culprit = Diagnostic.culpritFrame(on: path, appBinaries: options.appBinaries)?.shownFrames.first
    let frames = signatureFrames.map(\.shown)
    let stack = Array(path.lazy.flatMap(\.shownFrames).prefix(Self.stackLimit))
    if var group = groups[signature.identifier] {
      group.count += 1
      if let begin { group.firstSeen = min(group.firstSeen ?? begin, begin) }
      if let end { group.lastSeen = max(group.lastSeen ?? end, end) }
      group.keepFirst(culprit: culprit, frames: frames, stack: stack)
      groups[signature.identifier] = group
    } else {
      let objc = d.objectiveCExceptionReason.map { r in
        [r.exceptionName, r.composedMessage].compactMap { $0 }.joined(separator: ": ")
      }
      groups[signature.identifier] = Group(
        signature: signature, kind: d.kind, count: 1, firstSeen: begin, lastSeen: end, exceptionName: d.exceptionName,
        signalName: d.signalName, exceptionCode: d.exceptionCode, terminationReason: d.terminationReason,
        objectiveCException: objc, hangType: d.hangType,
        culprit: culprit, frames: frames, stack: stack)
    }
    switch d.kind {
    case .hang:
      if let s = d.hangDuration?.converted(to: .seconds).value { hangDurations.append(s) }
      hangTypes[GroupingKey.label(d.hangType), default: 0] += 1
    case .cpuException:
      if let s = d.totalCPUTime?.converted(to: .seconds).value { cpuTimes.append(s) }
    case .diskWriteException:
      if let mb = d.writesCaused?.converted(to: .megabytes).value { writes.append(mb) }
    case .appLaunch:
      if let s = d.launchDuration?.converted(to: .seconds).value { launchDurations.append(s) }
    case .crash, .memoryException:
      break
    }
    if options.foldedStacks, let tree = d.callStackTree {
      foldedStacks.add(tree, under: foldedStacks.child(of: FoldedStacks.root, d.kind.rawValue))
    }
  }

  /// Adds `samples` ending at the collapsed stack `path` (the kind, then frames outermost first):
  /// reading stacks back from a snapshot or cache entry.
  mutating func addFoldedPath(_ path: [String], samples: Int) {
    var node = FoldedStacks.root
    for label in path { node = foldedStacks.child(of: node, label) }
    foldedStacks.addSamples(samples, at: node)
  }

  /// Adds another aggregate of the same version.
  public mutating func merge(_ other: DiagnosticAggregate) {
    payloadCount += other.payloadCount
    for (k, n) in other.counts { counts[k, default: 0] += n }
    for (id, g) in other.groups {
      if var mine = groups[id] {
        mine.count += g.count
        if let f = g.firstSeen { mine.firstSeen = min(mine.firstSeen ?? f, f) }
        if let l = g.lastSeen { mine.lastSeen = max(mine.lastSeen ?? l, l) }
        mine.keepFirst(culprit: g.culprit, frames: g.frames, stack: g.stack)
        groups[id] = mine
      } else {
        groups[id] = g
      }
    }
    hangDurations.merge(other.hangDurations)
    for (t, n) in other.hangTypes { hangTypes[t, default: 0] += n }
    cpuTimes.merge(other.cpuTimes)
    writes.merge(other.writes)
    launchDurations.merge(other.launchDurations)
    foldedStacks.merge(other.foldedStacks)
  }

  /// All diagnostics.
  public var total: Int { counts.values.reduce(0, +) }
}

/// How diagnostics are aggregated.
public struct DiagnosticOptions: Sendable, Hashable {
  /// The app's own binary names (its executable and its frameworks, `FeedKit`), for culprit frames.
  public var appBinaries: Set<String>
  /// Whether to collect collapsed stacks (for `--format folded`).
  public var foldedStacks: Bool
  /// The most call frames of a collapsed stack; deeper frames fold into one marker frame.
  public var maximumFoldedDepth: Int
  /// Gives frames their function, file and line (`--symbols`); nil leaves them as reported.
  public var symbolicator: Symbolicator?

  /// Creates options.
  public init(
    appBinaries: Set<String> = [], foldedStacks: Bool = false,
    maximumFoldedDepth: Int = FoldedStacks.defaultMaximumDepth,
    symbolicator: Symbolicator? = nil
  ) {
    self.appBinaries = appBinaries
    self.foldedStacks = foldedStacks
    self.maximumFoldedDepth = maximumFoldedDepth
    self.symbolicator = symbolicator
  }

  public static func == (a: DiagnosticOptions, b: DiagnosticOptions) -> Bool {
    (a.appBinaries, a.foldedStacks, a.maximumFoldedDepth) == (b.appBinaries, b.foldedStacks, b.maximumFoldedDepth)
      && a.symbolicator === b.symbolicator
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(appBinaries)
    hasher.combine(foldedStacks)
    hasher.combine(maximumFoldedDepth)
    hasher.combine(symbolicator.map(ObjectIdentifier.init))
  }
}
