import Foundation
import PayloadSynthesis
import Testing

@testable import MetricKitAnalysis

/// Folded stacks: the same merge in any order, deep frames elided.
@Suite("Folded stacks")
struct FoldedStacksTests {
  @Test func foldedStacksMergeTheSameWayInAnyOrderAndElideDeepFrames() throws {
    func chain(_ n: Int, perThread: Bool) -> CallStackTree {
      var tree = CallStackTree(callStackPerThread: perThread)
      for i in 0..<n {
        tree.frames.append(
          CallStackTree.Frame(
            binaryUUID: nil, binaryName: "B", offsetIntoBinaryTextSegment: UInt64(i), address: nil,
            sampleCount: n - i, subFrames: i + 1 < n ? [i + 1] : [], depth: i))
      }
      tree.callStacks = [CallStackTree.CallStack(threadAttributed: true, rootFrames: [0])]
      return tree
    }
    func lines(_ s: FoldedStacks) -> [String] {
      var out: [String] = []
      s.forEachLine { out.append($0) }
      return out
    }
    var a = FoldedStacks(maximumDepth: 5)
    a.add(chain(12, perThread: false), under: FoldedStacks.root)
    #expect(lines(a).count == 6)
    #expect(lines(a).last == "B+0x0;B+0x1;B+0x2;B+0x3;B+0x4;[deeper frames elided] 7")
    // Per-thread trees read from the outermost frame: the innermost ones are elided.
    var p = FoldedStacks(maximumDepth: 3)
    p.add(chain(6, perThread: true), under: FoldedStacks.root)
    #expect(lines(p) == ["B+0x5;B+0x4;B+0x3;[deeper frames elided] 1"])
    var b = FoldedStacks(maximumDepth: 5)
    b.add(chain(3, perThread: false), under: FoldedStacks.root)
    var ab = a
    ab.merge(b)
    var ba = b
    ba.merge(a)
    #expect(lines(ab) == lines(ba))
    #expect(lines(ab).first == "B+0x0 2")
  }
}
