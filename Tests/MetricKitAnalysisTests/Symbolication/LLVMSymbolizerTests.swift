import Foundation
import TestSupport
import Testing

@testable import MetricKitAnalysis

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The symbolizer process as the run sees it, through stand-ins that answer as `llvm-symbolizer`
/// does (each answer echoing its file and address) or misbehave: every answer is paired with its
/// question by what it echoes, never by its place; every wait has a bound; the process is reaped.
@Suite("llvm-symbolizer process")
struct LLVMSymbolizerTests {
  /// A stand-in answering each `"FILE:ARCH" 0xADDRESS` line as the real one does, with the function
  /// `f0xADDRESS` (sed, line by line), after `before` (shell commands).
  static func standIn(_ dir: URL, before: String = "", name: String = "symbolizer") throws -> String {
    let path = dir.appendingPathComponent(name).path
    let script = """
      #!/bin/sh
      \(before)
      exec sed -u 's/^"\\(.*\\)" \\(0x[0-9a-f]*\\)$/{"Address":"\\2","ModuleName":"\\1","Symbol":[{"FunctionName":"f\\2","FileName":"a.c","Line":3,"Column":1}]}/'

      """
    try Data(script.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o755)
    return path
  }

  static func queries(_ path: String, _ addresses: ClosedRange<UInt64>) -> [LLVMSymbolizer.Query] {
    addresses.map {
      LLVMSymbolizer.Query(
        image: MachOImage(path: path, uuid: "U", architecture: "arm64", textVMAddress: 0, isDebugInfo: true),
        address: $0)
    }
  }

  @Test func answersArePairedWithTheirQuestionsAcrossBatches() throws {
    try withTemporaryDirectory { dir in
      let symbolizer = try LLVMSymbolizer(executable: try Self.standIn(dir), timeout: 30)
      // More than a batch: every answer the function of its own address.
      let answers = try symbolizer.symbols(Self.queries("/symbols/App", 0x1000...0x1400))
      #expect(answers.count == 0x401)
      #expect(answers.enumerated().allSatisfy { $1.map(\.function) == ["f0x\(String(0x1000 + $0, radix: 16))"] })
    }
  }

  @Test func anExtraLineEndsTheSymbolizersUseInsteadOfShiftingEveryAnswer() throws {
    try withTemporaryDirectory { dir in
      let shifted = try Self.standIn(dir, before: #"echo '{"Address":"0x0","ModuleName":"x","Symbol":[]}'"#)
      let symbolizer = try LLVMSymbolizer(executable: shifted, timeout: 30)
      #expect {
        _ = try symbolizer.symbols(Self.queries("/symbols/App", 0x10...0x12))
      } throws: { error in
        "\(error)".contains("answered for 0x0 in x where 0x10 in /symbols/App:arm64 was asked")
      }
    }
  }

  @Test func pathsWithLineBreaksAndQuotesReachTheSymbolizerAsLinksToThem() throws {
    try withTemporaryDirectory { dir in
      let file = dir.appendingPathComponent("sym\nbols \"q\"").path
      try Data("x".utf8).write(to: URL(fileURLWithPath: file))
      // The stand-in also says which file it was given to read.
      let symbolizer = try LLVMSymbolizer(executable: try Self.standIn(dir), timeout: 30)
      let answers = try symbolizer.symbols(Self.queries(file, 0x20...0x21) + Self.queries("/plain", 0x30...0x30))
      #expect(answers.map { $0.map(\.function) } == [["f0x20"], ["f0x21"], ["f0x30"]])
    }
  }

  @Test func aStalledSymbolizerIsStoppedInTimeAndReaped() throws {
    try withTemporaryDirectory { dir in
      let marker = "\(getpid())\(UInt16.random(in: 1000...9999))"
      let stall = dir.appendingPathComponent("stall").path
      try Data("#!/bin/sh\nexec sleep \(marker)\n".utf8).write(to: URL(fileURLWithPath: stall))
      chmod(stall, 0o755)
      let started = Date()
      do {
        let symbolizer = try LLVMSymbolizer(executable: stall, timeout: 0.5)
        #expect {
          _ = try symbolizer.symbols(Self.queries("/symbols/App", 1...3))
        } throws: { error in
          "\(error)".contains("stalled: no progress answering for 0.5 s")
        }
      }
      // Gone with the object, killed at once: the whole call ends within a moment of the timeout (a
      // grace of 2 s for a stalled process to end on its own would overrun it).
      #expect(Date().timeIntervalSince(started) < 1.5, "\(Date().timeIntervalSince(started)) s")
      #if os(Linux)
        let running = try Self.processes(containing: "sleep \(marker)")
        #expect(running.isEmpty, "\(running)")
      #endif
    }
  }

  @Test func aSymbolizerThatDiesIsSaidWithItsStatus() throws {
    try withTemporaryDirectory { dir in
      let dies = dir.appendingPathComponent("dies").path
      try Data("#!/bin/sh\nexit 3\n".utf8).write(to: URL(fileURLWithPath: dies))
      chmod(dies, 0o755)
      let symbolizer = try LLVMSymbolizer(executable: dies, timeout: 30)
      #expect {
        _ = try symbolizer.symbols(Self.queries("/symbols/App", 1...3))
      } throws: { error in
        let text = "\(error)"
        return text.contains("which exited with status 3") && !text.contains("NSCocoaErrorDomain")
      }
    }
  }

  @Test func longNamesAreCutAndLongAnswersRefused() throws {
    try withTemporaryDirectory { dir in
      // An answer whose function name is 100 KB (cut to the bound), then a line of 2 MiB (refused).
      let long = String(repeating: "n", count: 100_000)
      let answer = try SymbolizerAnswer(
        line: Array(#"{"Address":"0x1","ModuleName":"m:arm64","Symbol":[{"FunctionName":"\#(long)","Line":1}]}"#.utf8))
      #expect(answer.symbols[0].function.utf8.count == SymbolizerAnswer.maximumNameLength + "…".utf8.count)
      let huge = dir.appendingPathComponent("huge").path
      try Data(String(repeating: "x", count: 2 << 20).utf8).write(to: URL(fileURLWithPath: huge))
      let flood = try Self.standIn(dir, before: "cat '\(huge)'; echo", name: "flood")
      let symbolizer = try LLVMSymbolizer(executable: flood, timeout: 30)
      #expect {
        _ = try symbolizer.symbols(Self.queries("/symbols/App", 1...1))
      } throws: { error in
        "\(error)".contains("longer than \(LLVMSymbolizer.maximumAnswerLength) bytes")
      }
    }
  }

  /// The command lines of this machine's processes that contain `text`.
  static func processes(containing text: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { $0.allSatisfy(\.isNumber) }.compactMap {
      guard let line = FileManager.default.contents(atPath: "/proc/\($0)/cmdline") else { return nil }
      let command = String(decoding: line.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
      guard command.contains(text) else { return nil }
      // A zombie (already killed, not yet reaped by its new parent) is not running.
      let status = (try? String(contentsOfFile: "/proc/\($0)/stat", encoding: .utf8)) ?? ""
      return status.contains(") Z ") ? nil : command
    }
  }
}
