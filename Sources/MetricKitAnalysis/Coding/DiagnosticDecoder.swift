import Foundation

/// Decodes `MXDiagnosticPayload` and single-diagnostic documents (`MXCrashDiagnostic` etc.): every
/// field of MetricKit's diagnostic JSON through the tables below (as ``MetricPayloadDecoder`` does), call stack trees
/// walked with an explicit stack (no recursion limit).
struct DiagnosticDecoder {
  var context: DecodingContext

  /// A diagnostic payload: the arrays of diagnostics and the period.
  mutating func decodePayload(_ root: JSONValue) throws(PayloadDecodingError) -> DiagnosticPayload {
    var payload = try context.decode(root, with: Self.payload)
    payload.unknownKeys = context.unknownKeys
    return payload
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

  /// The payload's period and its arrays of diagnostics, one per kind.
  static let payload = FieldTable(
    "", empty: DiagnosticPayload(),
    [
      .timestamp("timeStampBegin", at: \.timeStampBegin),
      .timestamp("timeStampEnd", at: \.timeStampEnd),
    ]
      + DiagnosticKind.allCases.map { kind in
        .custom(
          kind.payloadKey,
          read: { (value, context, root) throws(PayloadDecodingError) in
            root.diagnostics += try context.array(value, of: diagnostic(kind), finish: { $0 })
          }, write: nil)
      })

  /// The table of a diagnostic of `kind`.
  static func diagnostic(_ kind: DiagnosticKind) -> FieldTable<Diagnostic> {
    diagnostics[DiagnosticKind.allCases.firstIndex(of: kind) ?? 0]
  }

  /// One diagnostic of each kind, in `allCases` order (the kind is its array's).
  private static let diagnostics = DiagnosticKind.allCases.map { kind in
    FieldTable(
      "\(kind.payloadKey)[]", empty: Diagnostic(kind: kind),
      [
        .custom(
          "version",
          read: { (value, context, root) throws(PayloadDecodingError) in root.version = try context.text(value) },
          write: { $0.version.map(JSONWriter.Value.string) }),
        .string("hangType", at: \.hangType),
        .inline("diagnosticMetaData", with: metaData),
        callStackTreeRow,
      ])
  }

  /// `callStackTree`, in either form, its unknown members counted with the document's.
  static let callStackTreeRow = FieldTable<Diagnostic>.Field.custom(
    "callStackTree",
    read: { (value, context, root) throws(PayloadDecodingError) in
      let read = try DiagnosticDecoder(context: context).callStackTree(value)
      root.callStackTree = read.tree
      context.noteUnknown(read.unknownKeys)
    }, write: { $0.callStackTree.map { .raw(DiagnosticPayloadEncoder.callStackTree($0)) } })

  /// `diagnosticMetaData`: the fields it shares with a metric payload's `metaData`, and its own, read
  /// into the diagnostic itself (its empty value is not used).
  static let metaData = FieldTable(
    "diagnosticMetaData", empty: Diagnostic(kind: .crash),
    FieldTable<Diagnostic>.Field.lifting(MetaData.rows, at: \.metaData.common) + [
      .custom(
        "appVersion",
        read: { (value, context, root) throws(PayloadDecodingError) in
          root.metaData.applicationVersion = try context.text(value)
        }, write: { $0.metaData.applicationVersion.map(JSONWriter.Value.string) }),
      .wholeNumber("exceptionType", at: \.exceptionType),
      .wholeNumber("exceptionCode", at: \.exceptionCode),
      .wholeNumber("signal", at: \.signal),
      .string("terminationReason", at: \.terminationReason),
      .string("virtualMemoryRegionInfo", at: \.virtualMemoryRegionInfo),
      .section("objectiveCexceptionReason", with: objectiveCReason, at: \.objectiveCExceptionReason),
      .seconds("hangDuration", at: \.hangDuration),
      .seconds("totalCPUTime", at: \.totalCPUTime),
      .seconds("totalSampledTime", at: \.totalSampledTime),
      .megabytes("writesCaused", at: \.writesCaused),
      .seconds("launchDuration", at: \.launchDuration),
      .array("signpostData", of: signpostRecord, at: \.metaData.signpostData),
      // Where some collectors write it; written back at the diagnostic's level.
      .string("hangType", at: \.hangType).readOnly,
    ])

  static let objectiveCReason = FieldTable(
    "diagnosticMetaData.objectiveCexceptionReason", empty: ObjectiveCExceptionReason(),
    [
      .string("composedMessage", at: \.composedMessage),
      .string("formatString", at: \.formatString),
      .custom(
        "arguments",
        read: { (value, _, root) throws(PayloadDecodingError) in
          root.arguments = value.children.map { $0.string ?? "" }
        }, write: { .array($0.arguments.map(JSONWriter.Value.string)) }),
      .string("exceptionType", "type", at: \.exceptionType),
      .string("className", at: \.className),
      .string("exceptionName", "name", at: \.exceptionName),
    ])

  /// A signpost record of `signpostData`: kept as found, a value of another type read as absent.
  static let signpostRecord = FieldTable(
    "diagnosticMetaData.signpostData[]", empty: SignpostRecord(), signpostRecordRows)

  /// The rows of a signpost record, shared with MetricKit 27's `SignpostRecord`.
  static let signpostRecordRows: [FieldTable<SignpostRecord>.Field] = [
    .lenientString("name", at: \.name),
    .lenientString("category", at: \.category),
    .lenientString("subsystem", at: \.subsystem),
    .lenientFlag("isInterval", at: \.isInterval),
    .lenientString("beginTimeStamp", at: \.beginTimeStamp),
    .lenientString("endTimeStamp", at: \.endTimeStamp),
  ]

  /// A call stack tree, frames collected with an explicit stack: the legacy form (`callStacks` of
  /// `callStackRootFrames`, binary names in the frames) or MetricKit 27's (`callStackThreads` of
  /// `rootFrames`, binary names in `binaryInfo`, by UUID).
  /// Members it does not know are counted by name, as the tables count theirs (`callStackTree.x`,
  /// `callStackTree.callStacks[].x`, `callStackTree.frame.x`).
  func callStackTree(
    _ value: JSONValue
  ) throws(PayloadDecodingError) -> (tree: CallStackTree, unknownKeys: [String: Int]) {
    let c = context
    var tree = CallStackTree()
    var binaryNames: [String: String] = [:]
    var unknown: [String: Int] = [:]
    for m in try c.object(value).children where m.kind != .null {
      if m.keyEquals("binaryInfo") {
        binaryNames = try c.within("binaryInfo") { () throws(PayloadDecodingError) in try binaryInfo(m) }
        continue
      }
      if m.keyEquals("callStackPerThread") {
        tree.callStackPerThread = try c.within("callStackPerThread") { () throws(PayloadDecodingError) in try c.flag(m)
        }
      } else if m.keyEquals("callStacks") || m.keyEquals("callStackThreads") {
        try c.within(m.key) { () throws(PayloadDecodingError) in
          guard m.kind == .array else { throw c.failure("expected an array, found \(m.kindName)") }
          for (i, stackValue) in m.children.enumerated() {
            try c.within(String(i)) { () throws(PayloadDecodingError) in
              var stack = CallStackTree.CallStack(threadAttributed: nil, rootFrames: [])
              for s in try c.object(stackValue).children where s.kind != .null {
                if s.keyEquals("threadAttributed") {
                  stack.threadAttributed = try c.flag(s)
                } else if s.keyEquals("callStackRootFrames") || s.keyEquals("rootFrames") {
                  stack.rootFrames = try c.within(s.key) { () throws(PayloadDecodingError) in
                    try frames(s, into: &tree, unknown: &unknown)
                  }
                } else {
                  unknown.count("callStackTree.callStacks[].\(s.key)", 1, keeping: DecodingContext.unknownKeyNamesKept)
                }
              }
              tree.callStacks.append(stack)
            }
          }
        }
      } else {
        unknown.count("callStackTree.\(m.key)", 1, keeping: DecodingContext.unknownKeyNamesKept)
      }
    }
    if !binaryNames.isEmpty {
      for i in tree.frames.indices where tree.frames[i].binaryName == nil {
        if let uuid = tree.frames[i].binaryUUID { tree.frames[i].binaryName = binaryNames[uuid] }
      }
    }
    return (tree, unknown)
  }

  /// `binaryInfo`: the binaries' names by UUID, as `[{"uuid": "…", "name": "…"}]` (also
  /// `binaryUUID`/`binaryName`), or an object from UUID to name.
  private func binaryInfo(_ value: JSONValue) throws(PayloadDecodingError) -> [String: String] {
    let c = context
    var names: [String: String] = [:]
    switch value.kind {
    case .object:
      for m in value.children { if let name = m.string { names[m.key] = name } }
    case .array:
      for (i, entry) in value.children.enumerated() {
        if entry.kind == .string { continue }  // a UUID alone names nothing
        guard entry.kind == .object else {
          throw c.failure("\(i): expected an object of a binary's uuid and name, found \(entry.kindName)")
        }
        let uuid = (entry.member("uuid") ?? entry.member("binaryUUID") ?? entry.member("UUID"))?.string
        let name = (entry.member("name") ?? entry.member("binaryName"))?.string
        if let uuid, let name { names[uuid] = name }
      }
    default:
      throw c.failure("expected an array of binaries, found \(value.kindName)")
    }
    return names
  }

  /// Decodes an array of frames and all their sub-frames into `tree.frames`; returns the indices of
  /// the array's frames.
  private func frames(
    _ array: JSONValue, into tree: inout CallStackTree, unknown: inout [String: Int]
  ) throws(PayloadDecodingError) -> [Int] {
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
        } else {
          unknown.count("callStackTree.frame.\(m.key)", 1, keeping: DecodingContext.unknownKeyNamesKept)
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
