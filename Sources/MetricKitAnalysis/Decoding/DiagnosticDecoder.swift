import Foundation

/// Decodes `MXDiagnosticPayload` and single-diagnostic documents (`MXCrashDiagnostic` etc.): every
/// field of MetricKit's diagnostic JSON through the tables below (as ``MetricPayloadDecoder`` does), call stack trees
/// walked with an explicit stack (no recursion limit).
struct DiagnosticDecoder {
  var context: DecodingContext

  /// A diagnostic payload: the five arrays and the period.
  mutating func decodePayload(_ root: JSONValue) throws(PayloadDecodingError) -> DiagnosticPayload {
    try context.decode(root, with: Self.payload)
  }

  /// A single diagnostic written on its own; its kind is read from its fields.
  mutating func decodeSingle(_ root: JSONValue) throws(PayloadDecodingError) -> Diagnostic {
    let meta = root.member("diagnosticMetaData")
    let kind: DiagnosticKind
    if root.member("hangType") != nil || meta?.member("hangDuration") != nil {
      kind = .hang
    } else if meta?.member("totalCPUTime") != nil {
      kind = .cpuException
    } else if meta?.member("writesCaused") != nil {
      kind = .diskWriteException
    } else if meta?.member("launchDuration") != nil {
      kind = .appLaunch
    } else {
      kind = .crash
    }
    return try context.decode(root, with: Self.diagnostic(kind))
  }

  /// The payload's period and its five arrays of diagnostics, one per kind.
  static let payload = FieldTable(
    empty: DiagnosticPayload(),
    [
      .timestamp("timeStampBegin") { $0.timeStampBegin = $1 },
      .timestamp("timeStampEnd") { $0.timeStampEnd = $1 },
    ]
      + DiagnosticKind.allCases.map { kind in
        .array(kind.payloadKey, of: diagnostic(kind)) { $0.diagnostics += $1 }
      })

  /// The table of a diagnostic of `kind`.
  static func diagnostic(_ kind: DiagnosticKind) -> FieldTable<Diagnostic> {
    diagnostics[DiagnosticKind.allCases.firstIndex(of: kind) ?? 0]
  }

  /// One diagnostic of each kind, in `allCases` order (the kind is its array's).
  private static let diagnostics = DiagnosticKind.allCases.map { kind in
    FieldTable(
      empty: Diagnostic(kind: kind),
      [
        .custom("version") { (value, context, root) throws(PayloadDecodingError) in
          root.version = try context.text(value)
        },
        .string("hangType") { $0.hangType = $1 },
        .custom("callStackTree") { (value, context, root) throws(PayloadDecodingError) in
          root.callStackTree = try DiagnosticDecoder(context: context).callStackTree(value)
        },
        .inline("diagnosticMetaData", with: metaData),
      ])
  }

  /// `diagnosticMetaData`: the fields it shares with a metric payload's `metaData`, and its own, read
  /// into the diagnostic itself (its empty value is not used).
  static let metaData = FieldTable(
    empty: Diagnostic(kind: .crash),
    FieldTable<Diagnostic>.Field.lifting(MetaData.rows, at: \.metaData.common) + [
      .custom("appVersion") { (value, context, root) throws(PayloadDecodingError) in
        root.metaData.applicationVersion = try context.text(value)
      },
      .wholeNumber("exceptionType") { $0.exceptionType = $1 },
      .wholeNumber("exceptionCode") { $0.exceptionCode = $1 },
      .wholeNumber("signal") { $0.signal = $1 },
      .string("terminationReason") { $0.terminationReason = $1 },
      .string("virtualMemoryRegionInfo") { $0.virtualMemoryRegionInfo = $1 },
      .section("objectiveCexceptionReason", with: objectiveCReason) { $0.objectiveCExceptionReason = $1 },
      .seconds("hangDuration") { $0.hangDuration = $1 },
      .seconds("totalCPUTime") { $0.totalCPUTime = $1 },
      .seconds("totalSampledTime") { $0.totalSampledTime = $1 },
      .megabytes("writesCaused") { $0.writesCaused = $1 },
      .seconds("launchDuration") { $0.launchDuration = $1 },
      .array("signpostData", of: signpostRecord) { $0.metaData.signpostData += $1 },
      .string("hangType") { $0.hangType = $1 },
    ])

  static let objectiveCReason = FieldTable(
    empty: ObjectiveCExceptionReason(),
    [
      .string("composedMessage") { $0.composedMessage = $1 },
      .string("formatString") { $0.formatString = $1 },
      .custom("arguments") { (value, _, root) throws(PayloadDecodingError) in
        root.arguments = value.children.map { $0.string ?? "" }
      },
      .string("exceptionType", "type") { $0.exceptionType = $1 },
      .string("className") { $0.className = $1 },
      .string("exceptionName", "name") { $0.exceptionName = $1 },
    ])

  /// A signpost record of `signpostData`: kept as found, a value of another type read as absent.
  static let signpostRecord = FieldTable(
    empty: SignpostRecord(),
    [
      .lenient("name") { $0.name = $1.string },
      .lenient("category") { $0.category = $1.string },
      .lenient("subsystem") { $0.subsystem = $1.string },
      .lenient("isInterval") { $0.isInterval = $1.bool },
      .lenient("beginTimeStamp") { $0.beginTimeStamp = $1.string },
      .lenient("endTimeStamp") { $0.endTimeStamp = $1.string },
    ])

  /// A call stack tree, frames collected with an explicit stack.
  func callStackTree(_ value: JSONValue) throws(PayloadDecodingError) -> CallStackTree {
    let c = context
    var tree = CallStackTree()
    for m in try c.object(value).children where m.kind != .null {
      if m.keyEquals("callStackPerThread") {
        tree.callStackPerThread = try c.within("callStackPerThread") { () throws(PayloadDecodingError) in try c.flag(m)
        }
      } else if m.keyEquals("callStacks") {
        try c.within("callStacks") { () throws(PayloadDecodingError) in
          guard m.kind == .array else { throw c.failure("expected an array, found \(m.kindName)") }
          for (i, stackValue) in m.children.enumerated() {
            try c.within(String(i)) { () throws(PayloadDecodingError) in
              var stack = CallStackTree.CallStack(threadAttributed: nil, rootFrames: [])
              for s in try c.object(stackValue).children where s.kind != .null {
                if s.keyEquals("threadAttributed") {
                  stack.threadAttributed = try c.flag(s)
                } else if s.keyEquals("callStackRootFrames") {
                  stack.rootFrames = try c.within("callStackRootFrames") { () throws(PayloadDecodingError) in
                    try frames(s, into: &tree)
                  }
                }
              }
              tree.callStacks.append(stack)
            }
          }
        }
      }
    }
    return tree
  }

  /// Decodes an array of frames and all their sub-frames into `tree.frames`; returns the indices of
  /// the array's frames.
  private func frames(_ array: JSONValue, into tree: inout CallStackTree) throws(PayloadDecodingError) -> [Int] {
    let c = context
    guard array.kind == .array else { throw c.failure("expected an array of frames, found \(array.kindName)") }
    var roots: [Int] = []
    // (frame value, parent index or -1, depth)
    var pending: [(JSONValue, Int, Int)] = array.children.reversed().map { ($0, -1, 0) }
    while let (value, parent, depth) = pending.popLast() {
      guard value.kind == .object else {
        throw c.failure("expected a frame object at depth \(depth), found \(value.kindName)")
      }
      var frame = CallStackTree.Frame(
        binaryUUID: nil, binaryName: nil, offsetIntoBinaryTextSegment: 0, address: nil, sampleCount: 0, subFrames: [],
        depth: depth)
      var children: JSONValue? = nil
      for m in value.children where m.kind != .null {
        if m.keyEquals("binaryUUID") {
          frame.binaryUUID = m.string
        } else if m.keyEquals("binaryName") {
          frame.binaryName = m.string
        } else if m.keyEquals("offsetIntoBinaryTextSegment") {
          frame.offsetIntoBinaryTextSegment = try unsigned(m, "offsetIntoBinaryTextSegment", depth)
        } else if m.keyEquals("address") {
          frame.address = try unsigned(m, "address", depth)
        } else if m.keyEquals("sampleCount") {
          frame.sampleCount = try c.within("sampleCount") { () throws(PayloadDecodingError) in try c.count(m) }
        } else if m.keyEquals("subFrames") {
          guard m.kind == .array else { throw c.failure("subFrames at depth \(depth) is \(m.kindName), not an array") }
          children = m
        }
      }
      let index = tree.frames.count
      tree.frames.append(frame)
      if parent >= 0 { tree.frames[parent].subFrames.append(index) } else { roots.append(index) }
      if let children {
        for child in children.children.reversed() { pending.append((child, index, depth + 1)) }
      }
    }
    return roots
  }

  private func unsigned(_ value: JSONValue, _ key: String, _ depth: Int) throws(PayloadDecodingError) -> UInt64 {
    if let u = value.uint64 { return u }
    throw context.failure("\(key) at depth \(depth) is not a non-negative integer")
  }
}
