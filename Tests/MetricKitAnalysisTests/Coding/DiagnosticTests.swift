import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

/// Diagnostic payloads, single diagnostics and call stack trees: the public fixtures decode with
/// their fields; signatures are stable; folded stacks match a tree computed by hand; deep trees decode.
@Suite("Diagnostics")
struct DiagnosticTests {
  private func documents(_ name: String) throws -> [DiagnosticPayload]? {
    guard let dir = TestDirectories.publicFixtures() else { return nil }
    var payloads: [DiagnosticPayload] = []
    var rejected: [Rejection] = []
    PayloadReader().read(paths: [dir.appendingPathComponent(name).path]) { event in
      if case .diagnostics(let p, _, _) = event { payloads.append(p) }
      if case .rejected(let r) = event { rejected.append(r) }
    }
    #expect(rejected.isEmpty, "\(rejected)")
    return payloads
  }

  private func chain(_ tree: CallStackTree) -> [CallStackTree.Frame] {
    guard let stack = tree.attributedStack else { return [] }
    return tree.heaviestPath(stack)
  }

  @Test func realIOS14CrashReport() throws {
    guard let payloads = try documents("ChimeHQ__Meter__real_report.json") else { return }
    let crashes = try #require(payloads.first?.crashDiagnostics)
    #expect(crashes.count == 2)
    let first = crashes[0]
    #expect(first.exceptionType == 6 && first.exceptionName == "EXC_BREAKPOINT")
    #expect(first.signal == 5 && first.signalName == "SIGTRAP")
    #expect(first.exceptionCode == 1)
    #expect(first.terminationReason == "Namespace SIGNAL, Code 0x5")
    #expect(first.metaData.applicationVersion == "1.0")
    #expect(first.metaData.common.deviceType == "iPhone10,2")
    let tree = try #require(first.callStackTree)
    #expect(tree.callStackPerThread)
    #expect(tree.callStacks.count >= 9)
    let attributed = chain(tree)
    #expect(attributed.count == 32)
    #expect(attributed.first?.binaryName == "libswiftCore.dylib")
    #expect(attributed.last?.binaryName == "libdyld.dylib")
    #expect(payloads.first?.timeStampBegin != nil)
  }

  @Test func uncaughtExceptionCrashKeepsMultiLineRegionInfo() throws {
    guard let payloads = try documents("ChimeHQ__Meter__ios_uncaugh_exception_payload.json") else { return }
    let crash = try #require(payloads.first?.crashDiagnostics.first)
    #expect(crash.signalName == "SIGSEGV" && crash.exceptionName == "EXC_BAD_ACCESS")
    #expect(crash.virtualMemoryRegionInfo?.contains("\n      __TEXT") == true)
  }

  @Test func simulatedPayloadsCarryEveryKind() throws {
    guard let ios = try documents("ChimeHQ__Meter__xcode_simulated.json")?.first else { return }
    #expect(ios.hangDiagnostics.first?.hangDuration?.value == 20)  // "20 secs."
    #expect(ios.cpuExceptionDiagnostics.first?.totalCPUTime?.value == 20)
    #expect(ios.cpuExceptionDiagnostics.first?.totalSampledTime?.value == 20)
    #expect(ios.diskWriteExceptionDiagnostics.first?.writesCaused?.value == 0.002)  // "2,000 byte" in MB
    #expect(ios.crashDiagnostics.first?.callStackTree?.frames.first?.binaryName == "testBinaryName")
    guard let mac = try documents("ChimeHQ__Meter__xcode_simulated_macOS_13.json")?.first else { return }
    #expect(mac.appLaunchDiagnostics.first?.launchDuration?.value == 20)  // "20000 ms" in s
    #expect(mac.appLaunchDiagnostics.first?.metaData.common.bundleIdentifier == "com.chimehq.Edit")
    #expect(mac.appLaunchDiagnostics.first?.metaData.applicationVersion == "")
  }

  @Test func realIOS26SingleDiagnostics() throws {
    guard
      let watchdog = try documents("embrace-io__embrace-apple-sdk__crash_with_term_reason.json")?.first?.diagnostics
        .first
    else { return }
    #expect(watchdog.kind == .crash)
    #expect(watchdog.signalName == "SIGKILL")
    #expect(watchdog.terminationReason?.contains("0x8BADF00D") == true)
    #expect(watchdog.terminationReason?.contains("\nProcessVisibility: Foreground") == true)
    #expect(watchdog.callStackTree?.depth == 86)
    guard
      let signposts = try documents("embrace-io__embrace-apple-sdk__crash_with_signposts.json")?.first?.diagnostics
        .first
    else { return }
    #expect(signposts.metaData.signpostData.first?.name == "emb_sid")
    #expect(signposts.metaData.signpostData.first?.isInterval == false)
    #expect(signposts.metaData.signpostData.first?.subsystem == "com.apple.metrickit.log")
    guard let crash = try documents("embrace-io__embrace-apple-sdk__crash_diagnostic_01.json")?.first?.diagnostics.first
    else { return }
    #expect(crash.exceptionName == "EXC_CRASH" && crash.signalName == "SIGABRT")
    #expect(crash.metaData.common.pid == 15713)
    #expect(crash.metaData.common.isTestFlightApp == false)
    #expect(crash.callStackTree?.callStacks.count == 13)
    #expect(crash.callStackTree?.callStacks.contains { $0.rootFrames.isEmpty } == true)
    #expect(crash.callStackTree?.depth == 64)
  }

  @Test func callStackTreesAloneDecodeAndEdgeFramesSurvive() throws {
    guard let dir = TestDirectories.publicFixtures() else { return }
    var trees = 0
    PayloadReader().read(paths: [dir.path]) { event in
      if case .otherDocument(.callStackTree, _) = event { trees += 1 }
    }
    #expect(trees == 8)
    let text = try String(
      contentsOf: dir.appendingPathComponent("getsentry__sentry-cocoa__callstacktree-per-thread-nil-package.json"),
      encoding: .utf8)
    let tree = try Self.tree(text)
    #expect(tree.frames.contains { $0.binaryName == nil && $0.address == 0 })
    let aggregated = try Self.tree(
      String(
        contentsOf: dir.appendingPathComponent("getsentry__sentry-cocoa__callstacktree-not-per-thread.json"),
        encoding: .utf8))
    #expect(!aggregated.callStackPerThread)
  }

  /// Decodes a call stack tree document.
  static func tree(_ text: String) throws -> CallStackTree {
    let buffer = try Data(text.utf8).withUnsafeBytes { try PaddedBuffer(copying: $0) }
    let parser = try #require(JSONParser(maximumDepth: 100_000))
    return try parser.parse(buffer.bytes) { (root) throws(PayloadDecodingError) in
      try DiagnosticDecoder(context: DecodingContext(timestamps: TimestampParser(), limits: InputLimits()))
        .callStackTree(root).tree
    }
  }

  @Test func foldedStacksMatchATreeComputedByHand() throws {
    // Aggregated (outermost first): main 10 → { work 6 → { parse 4 }, idle 3 }: main has 1 sample of
    // its own, work 2, parse 4, idle 3.
    let aggregated = """
      {"callStackPerThread": false, "callStacks": [{"callStackRootFrames": [
        {"binaryName": "App", "offsetIntoBinaryTextSegment": 16, "sampleCount": 10, "subFrames": [
          {"binaryName": "App", "offsetIntoBinaryTextSegment": 32, "sampleCount": 6, "subFrames": [
            {"binaryName": "libjson", "offsetIntoBinaryTextSegment": 48, "sampleCount": 4}]},
          {"binaryName": "libsystem", "offsetIntoBinaryTextSegment": 255, "sampleCount": 3}]}]}]}
      """
    let folded = try Self.tree(aggregated).foldedStacks().map { ($0.stack.joined(separator: ";"), $0.count) }
    let expected: [(String, Int)] = [
      ("App+0x10", 1), ("App+0x10;App+0x20", 2), ("App+0x10;App+0x20;libjson+0x30", 4), ("App+0x10;libsystem+0xff", 3),
    ]
    #expect(folded.map(\.0) == expected.map(\.0))
    #expect(folded.map(\.1) == expected.map(\.1))
    #expect(folded.map(\.1).reduce(0, +) == 10)  // every sample once

    // Per thread (innermost first, as crashes are written): read backwards.
    let perThread = """
      {"callStackPerThread": true, "callStacks": [{"threadAttributed": true, "callStackRootFrames": [
        {"binaryName": "libsystem_kernel", "offsetIntoBinaryTextSegment": 1, "sampleCount": 1, "subFrames": [
          {"binaryName": "App", "offsetIntoBinaryTextSegment": 2, "sampleCount": 1, "subFrames": [
            {"binaryName": "dyld", "offsetIntoBinaryTextSegment": 3, "sampleCount": 1}]}]}]}]}
      """
    let lines = try Self.tree(perThread).foldedStacks()
    #expect(lines.count == 1)
    #expect(lines[0].stack == ["dyld+0x3", "App+0x2", "libsystem_kernel+0x1"])
    #expect(lines[0].count == 1)
  }

  @Test func tenThousandDeepTreeDecodesAndWalks() throws {
    var text = #"{"callStackPerThread": true, "callStacks": [{"threadAttributed": true, "callStackRootFrames": ["#
    let depth = 10_000
    for i in 0..<depth {
      text += #"{"binaryName": "B", "offsetIntoBinaryTextSegment": \#(i), "sampleCount": 1"#
      text += i + 1 < depth ? #", "subFrames": ["# : "}"
    }
    text += String(repeating: "]}", count: depth - 1) + "]}]}"
    let tree = try Self.tree(text)
    #expect(tree.frames.count == depth)
    #expect(tree.depth == depth)
    #expect(tree.foldedStacks().first?.stack.count == depth)
    var single = Diagnostic(kind: .hang)
    single.callStackTree = tree
    #expect(DiagnosticSignature(single).text.hasSuffix("B+0x0 < B+0x1 < B+0x2 < B+0x3 < B+0x4"))
  }

  @Test func signaturesAreStableAndOrderIndependent() throws {
    guard let dir = TestDirectories.publicFixtures() else { return }
    let path = dir.appendingPathComponent("embrace-io__embrace-apple-sdk__crash_diagnostic_01.json").path
    var diagnostics: [Diagnostic] = []
    PayloadReader().read(paths: [path]) { if case .diagnostics(let p, _, _) = $0 { diagnostics += p.diagnostics } }
    let signature = DiagnosticSignature(try #require(diagnostics.first))
    // The same on every run and every machine: FNV-1a of the text, pinned here (and computed apart
    // from the tree by a script). The app's own Splash.debug.dylib, below the shared region, is
    // signed by its name alone.
    #expect(
      signature.text
        == "crash EXC_CRASH SIGABRT code 0 | libsystem_kernel.dylib+0xb0cc < libsystem_pthread.dylib+0x77e8 < libsystem_c.dylib+0x3c9e8 < Splash.debug.dylib < libsystem_platform.dylib+0x4118"
    )
    #expect(signature.identifier == "049c2db95e58ba5f")
    // Groups do not depend on the order diagnostics arrive in.
    let all = PayloadReader().readAll(paths: [dir.path])
    _ = all
    var forward = DiagnosticAggregate(version: "x")
    var backward = DiagnosticAggregate(version: "x")
    var every: [Diagnostic] = []
    PayloadReader().read(paths: [dir.path]) { if case .diagnostics(let p, _, _) = $0 { every += p.diagnostics } }
    for d in every { forward.add(d, begin: nil, end: nil, options: DiagnosticOptions()) }
    for d in every.reversed() { backward.add(d, begin: nil, end: nil, options: DiagnosticOptions()) }
    #expect(forward.groups.mapValues(\.count) == backward.groups.mapValues(\.count))
    #expect(forward.total == 19)
  }

  @Test func objectiveCExceptionAndCulpritFrame() throws {
    let json = """
      {"version": "1.0.0", "diagnosticMetaData": {"appVersion": "2.0", "exceptionType": 10, "signal": 6,
        "objectiveCexceptionReason": {"composedMessage": "*** -[__NSArrayM objectAtIndex:]: index 5 beyond bounds",
          "formatString": "%@", "arguments": ["a"], "exceptionType": "NSException", "className": "NSException",
          "exceptionName": "NSRangeException"}},
       "callStackTree": {"callStackPerThread": true, "callStacks": [{"threadAttributed": true, "callStackRootFrames": [
         {"binaryName": "libsystem_kernel.dylib", "offsetIntoBinaryTextSegment": 100, "sampleCount": 1, "subFrames": [
           {"binaryName": "MyApp", "offsetIntoBinaryTextSegment": 4096, "sampleCount": 1}]}]}]}}
      """
    let results = Support.decode(json)
    guard case .success(.diagnosticPayload(let payload, .diagnostic)) = results.first?.1 else {
      Issue.record("not decoded: \(String(describing: results.first?.1))")
      return
    }
    let d = try #require(payload.diagnostics.first)
    #expect(d.objectiveCExceptionReason?.exceptionName == "NSRangeException")
    #expect(d.objectiveCExceptionReason?.arguments == ["a"])
    #expect(d.culpritFrame(appBinaries: ["MyApp"])?.label == "MyApp+0x1000")
    // Without addresses nor names, no frame is known to be the app's.
    #expect(d.culpritFrame(appBinaries: []) == nil)
    #expect(
      DiagnosticSignature(d).text
        == "crash EXC_CRASH SIGABRT NSRangeException | libsystem_kernel.dylib+0x64 < MyApp+0x1000")
  }
}
