import Foundation

/// Decodes `MXDiagnosticPayload` and single-diagnostic documents (`MXCrashDiagnostic` etc.): every
/// field of SPEC §1, call stack trees walked with an explicit stack (no recursion limit).
struct DiagnosticDecoder {
  var context: DecodingContext

  /// A diagnostic payload: the five arrays and the period.
  mutating func decodePayload(_ root: JSONValue) throws(PayloadDecodingError) -> DiagnosticPayload {
    var payload = DiagnosticPayload()
    for member in root.children where member.kind != .null {
      if member.keyEquals("timeStampBegin") {
        payload.timeStampBegin = try context.withinMutating("timeStampBegin") { (c) throws(PayloadDecodingError) in
          try c.timestamp(member)
        }
      } else if member.keyEquals("timeStampEnd") {
        payload.timeStampEnd = try context.withinMutating("timeStampEnd") { (c) throws(PayloadDecodingError) in
          try c.timestamp(member)
        }
      } else if let kind = DiagnosticKind.allCases.first(where: { member.keyEquals($0.payloadKey) }) {
        let c = context
        try c.within(member.key) { () throws(PayloadDecodingError) in
          guard member.kind == .array else { throw c.failure("expected an array, found \(member.kindName)") }
          for (i, element) in member.children.enumerated() {
            payload.diagnostics.append(
              try c.within(String(i)) { () throws(PayloadDecodingError) in try diagnostic(element, kind: kind) })
          }
        }
      }
    }
    return payload
  }

  /// A single diagnostic written on its own; its kind is read from its fields.
  func decodeSingle(_ root: JSONValue) throws(PayloadDecodingError) -> Diagnostic {
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
    return try diagnostic(root, kind: kind)
  }

  private func diagnostic(_ value: JSONValue, kind: DiagnosticKind) throws(PayloadDecodingError) -> Diagnostic {
    let c = context
    var d = Diagnostic(kind: kind)
    for member in try c.object(value).children where member.kind != .null {
      if member.keyEquals("version") {
        d.version = try c.within("version") { () throws(PayloadDecodingError) in try text(member) }
      } else if member.keyEquals("hangType") {
        d.hangType = try c.within("hangType") { () throws(PayloadDecodingError) in try c.string(member) }
      } else if member.keyEquals("callStackTree") {
        d.callStackTree = try c.within("callStackTree") { () throws(PayloadDecodingError) in try callStackTree(member) }
      } else if member.keyEquals("diagnosticMetaData") {
        try c.within("diagnosticMetaData") { () throws(PayloadDecodingError) in try metaData(member, into: &d) }
      }
    }
    return d
  }

  /// A string, or a number written where a string is usual (`version`).
  private func text(_ value: JSONValue) throws(PayloadDecodingError) -> String {
    if let s = value.string { return s }
    if let d = value.double { return JSONWriter.number(d) }
    throw context.failure("expected a string, found \(value.kindName)")
  }

  private func metaData(_ value: JSONValue, into d: inout Diagnostic) throws(PayloadDecodingError) {
    var c = context
    for m in try c.object(value).children where m.kind != .null {
      if try c.metaDataField(m, into: &d.metaData.common) { continue }
      try c.within(m.key) { () throws(PayloadDecodingError) in
        if m.keyEquals("appVersion") {
          d.metaData.applicationVersion = try text(m)
        } else if m.keyEquals("exceptionType") {
          d.exceptionType = try integer(m)
        } else if m.keyEquals("exceptionCode") {
          d.exceptionCode = try integer(m)
        } else if m.keyEquals("signal") {
          d.signal = try integer(m)
        } else if m.keyEquals("terminationReason") {
          d.terminationReason = try c.string(m)
        } else if m.keyEquals("virtualMemoryRegionInfo") {
          d.virtualMemoryRegionInfo = try c.string(m)
        } else if m.keyEquals("objectiveCexceptionReason") {
          d.objectiveCExceptionReason = try objectiveCReason(m)
        } else if m.keyEquals("hangDuration") {
          d.hangDuration = try c.seconds(m)
        } else if m.keyEquals("totalCPUTime") {
          d.totalCPUTime = try c.seconds(m)
        } else if m.keyEquals("totalSampledTime") {
          d.totalSampledTime = try c.seconds(m)
        } else if m.keyEquals("writesCaused") {
          d.writesCaused = try c.megabytes(m)
        } else if m.keyEquals("launchDuration") {
          d.launchDuration = try c.seconds(m)
        } else if m.keyEquals("signpostData") {
          guard m.kind == .array else { throw c.failure("expected an array, found \(m.kindName)") }
          for (i, record) in m.children.enumerated() {
            d.metaData.signpostData.append(
              try c.within(String(i)) { () throws(PayloadDecodingError) in try signpostRecord(record) })
          }
        } else if m.keyEquals("hangType") {
          d.hangType = try c.string(m)
        }
      }
    }
  }

  /// A whole number written as a JSON number (exception codes can be large and unsigned).
  private func integer(_ value: JSONValue) throws(PayloadDecodingError) -> Int {
    if let n = value.int64 { return Int(n) }
    if let u = value.uint64 { return Int(truncatingIfNeeded: u) }  // a 64-bit code, kept as its bit pattern
    if let s = value.string, let n = Int(s) { return n }
    throw context.failure("expected a whole number, found \(value.kindName)")
  }

  private func objectiveCReason(_ value: JSONValue) throws(PayloadDecodingError) -> ObjectiveCExceptionReason {
    let c = context
    var r = ObjectiveCExceptionReason()
    for m in try c.object(value).children where m.kind != .null {
      try c.within(m.key) { () throws(PayloadDecodingError) in
        if m.keyEquals("composedMessage") {
          r.composedMessage = try c.string(m)
        } else if m.keyEquals("formatString") {
          r.formatString = try c.string(m)
        } else if m.keyEquals("arguments") {
          r.arguments = m.children.map { $0.string ?? "" }
        } else if m.keyEquals("exceptionType") || m.keyEquals("type") {
          r.exceptionType = try c.string(m)
        } else if m.keyEquals("className") {
          r.className = try c.string(m)
        } else if m.keyEquals("exceptionName") || m.keyEquals("name") {
          r.exceptionName = try c.string(m)
        }
      }
    }
    return r
  }

  private func signpostRecord(_ value: JSONValue) throws(PayloadDecodingError) -> SignpostRecord {
    let c = context
    var r = SignpostRecord()
    for m in try c.object(value).children where m.kind != .null {
      if m.keyEquals("name") {
        r.name = m.string
      } else if m.keyEquals("category") {
        r.category = m.string
      } else if m.keyEquals("subsystem") {
        r.subsystem = m.string
      } else if m.keyEquals("isInterval") {
        r.isInterval = m.bool
      } else if m.keyEquals("beginTimeStamp") {
        r.beginTimeStamp = m.string
      } else if m.keyEquals("endTimeStamp") {
        r.endTimeStamp = m.string
      }
    }
    return r
  }

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
