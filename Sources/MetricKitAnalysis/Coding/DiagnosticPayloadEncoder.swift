import Foundation

/// Writes a ``DiagnosticPayload`` back as MetricKit writes `MXDiagnosticPayload.jsonRepresentation()`,
/// through the decoder's own field tables (``DiagnosticDecoder``): the diagnostic arrays, each
/// diagnostic's `diagnosticMetaData` with MetricKit's keys and measurement strings, and its call stack
/// tree, nested as MetricKit nests it but written without recursion, so a tree 10,000 frames deep
/// costs no stack.
enum DiagnosticPayloadEncoder {
  static func encode(_ p: DiagnosticPayload) -> JSONWriter.Value {
    var members = DiagnosticDecoder.payload.members(of: p)
    // The kinds in the order their first diagnostic comes: the order the arrays were read in.
    var kinds: [DiagnosticKind] = []
    for d in p.diagnostics where !kinds.contains(d.kind) { kinds.append(d.kind) }
    for kind in kinds {
      let table = DiagnosticDecoder.diagnostic(kind)
      members.append(("\(kind.payloadKey)", .array(p.diagnostics.filter { $0.kind == kind }.map(table.encode))))
    }
    return .object(members)
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
