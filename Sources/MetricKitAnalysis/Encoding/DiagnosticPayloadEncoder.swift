import Foundation

/// Writes a ``DiagnosticPayload`` back as MetricKit writes `MXDiagnosticPayload.jsonRepresentation()`:
/// the five diagnostic arrays, each diagnostic's `diagnosticMetaData` with MetricKit's keys and
/// measurement strings, and its call stack tree, nested as MetricKit nests it but written without
/// recursion, so a tree 10,000 frames deep costs no stack.
enum DiagnosticPayloadEncoder {
  static func encode(_ p: DiagnosticPayload) -> JSONWriter.Value {
    var members: [(String, JSONWriter.Value)] = []
    if let begin = p.timeStampBegin {
      members.append(("timeStampBegin", MetricPayloadEncoder.timestamp(begin, zone: true)))
    }
    if let end = p.timeStampEnd { members.append(("timeStampEnd", MetricPayloadEncoder.timestamp(end, zone: true))) }
    // The kinds in the order their first diagnostic comes: the order the arrays were read in.
    var kinds: [DiagnosticKind] = []
    for d in p.diagnostics where !kinds.contains(d.kind) { kinds.append(d.kind) }
    for kind in kinds {
      let diagnostics = p.diagnostics.filter { $0.kind == kind }
      if !diagnostics.isEmpty { members.append(("\(kind.payloadKey)", .array(diagnostics.map(diagnostic)))) }
    }
    return .object(members)
  }

  private static func diagnostic(_ d: Diagnostic) -> JSONWriter.Value {
    func seconds(_ m: Measurement<UnitDuration>?) -> JSONWriter.Value? { m.map(MetricPayloadEncoder.measurement) }
    var meta = MetricPayloadEncoder.metaDataMembers(d.metaData.common)
    meta += [
      ("appVersion", d.metaData.applicationVersion.map(JSONWriter.Value.string)),
      ("exceptionType", d.exceptionType.map { .integer(Int128($0)) }),
      ("exceptionCode", d.exceptionCode.map { .integer(Int128($0)) }),
      ("signal", d.signal.map { .integer(Int128($0)) }),
      ("terminationReason", d.terminationReason.map(JSONWriter.Value.string)),
      ("virtualMemoryRegionInfo", d.virtualMemoryRegionInfo.map(JSONWriter.Value.string)),
      ("objectiveCexceptionReason", d.objectiveCExceptionReason.map(objectiveCReason)),
      ("hangDuration", seconds(d.hangDuration)),
      ("totalCPUTime", seconds(d.totalCPUTime)),
      ("totalSampledTime", seconds(d.totalSampledTime)),
      ("writesCaused", d.writesCaused.map(MetricPayloadEncoder.measurement)),
      ("launchDuration", seconds(d.launchDuration)),
      ("signpostData", d.metaData.signpostData.isEmpty ? nil : .array(d.metaData.signpostData.map(signpostRecord))),
    ]
    return MetricPayloadEncoder.object([
      ("version", d.version.map(JSONWriter.Value.string)),
      ("hangType", d.hangType.map(JSONWriter.Value.string)),
      ("diagnosticMetaData", MetricPayloadEncoder.object(meta)),
      ("callStackTree", d.callStackTree.map { .raw(callStackTree($0)) }),
    ])
  }

  private static func objectiveCReason(_ r: ObjectiveCExceptionReason) -> JSONWriter.Value {
    MetricPayloadEncoder.object([
      ("composedMessage", r.composedMessage.map(JSONWriter.Value.string)),
      ("formatString", r.formatString.map(JSONWriter.Value.string)),
      ("arguments", .array(r.arguments.map(JSONWriter.Value.string))),
      ("exceptionType", r.exceptionType.map(JSONWriter.Value.string)),
      ("className", r.className.map(JSONWriter.Value.string)),
      ("exceptionName", r.exceptionName.map(JSONWriter.Value.string)),
    ])
  }

  private static func signpostRecord(_ r: SignpostRecord) -> JSONWriter.Value {
    MetricPayloadEncoder.object([
      ("name", r.name.map(JSONWriter.Value.string)),
      ("category", r.category.map(JSONWriter.Value.string)),
      ("subsystem", r.subsystem.map(JSONWriter.Value.string)),
      ("isInterval", r.isInterval.map(JSONWriter.Value.bool)),
      ("beginTimeStamp", r.beginTimeStamp.map(JSONWriter.Value.string)),
      ("endTimeStamp", r.endTimeStamp.map(JSONWriter.Value.string)),
    ])
  }

  /// The tree as compact JSON text, frames nested under `subFrames`, walked with an explicit stack.
  static func callStackTree(_ tree: CallStackTree) -> String {
    enum Step {
      case open(Int, first: Bool)
      case close
    }
    var out = "{\"callStackPerThread\":\(tree.callStackPerThread),\"callStacks\":["
    for (s, stack) in tree.callStacks.enumerated() {
      out += s == 0 ? "{" : ",{"
      if let attributed = stack.threadAttributed { out += "\"threadAttributed\":\(attributed)," }
      out += "\"callStackRootFrames\":["
      var pending: [Step] = stack.rootFrames.enumerated().reversed().map { .open($1, first: $0 == 0) }
      while let step = pending.popLast() {
        guard case .open(let index, let first) = step else {
          out += "]}"
          continue
        }
        let frame = tree.frames[index]
        out += first ? "{" : ",{"
        if let uuid = frame.binaryUUID { out += "\"binaryUUID\":\(JSONWriter.quoted(uuid))," }
        if let name = frame.binaryName { out += "\"binaryName\":\(JSONWriter.quoted(name))," }
        out += "\"offsetIntoBinaryTextSegment\":\(frame.offsetIntoBinaryTextSegment),"
        if let address = frame.address { out += "\"address\":\(address)," }
        out += "\"sampleCount\":\(frame.sampleCount)"
        if frame.subFrames.isEmpty {
          out += "}"
        } else {
          out += ",\"subFrames\":["
          pending.append(.close)
          for (k, child) in frame.subFrames.enumerated().reversed() { pending.append(.open(child, first: k == 0)) }
        }
      }
      out += "]}"
    }
    return out + "]}"
  }
}
