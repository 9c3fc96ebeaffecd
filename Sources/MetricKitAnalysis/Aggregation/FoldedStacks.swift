/// Collapsed stacks (`outer;…;inner count`, the input of flamegraph.pl and speedscope) kept as a
/// prefix tree of frame labels with the samples that end at each node.
///
/// A tree holds each distinct path prefix once, so memory grows with the distinct frames, not with
/// the length of the lines they spell (a 9,000-frame chain is 9,000 nodes, while its lines would be
/// 40 million labels). Paths deeper than `maximumDepth` frames end in one ``elisionMarker`` frame
/// that collects the samples of everything below it. Lines are written one at a time, depth first,
/// siblings in byte-wise label order, so the output is streamed and does not depend on the order
/// stacks were added or merged.
public struct FoldedStacks: Sendable {
  /// The frame that stands for the frames elided below `maximumDepth`.
  public static let elisionMarker = "[deeper frames elided]"
  /// The default depth written.
  public static let defaultMaximumDepth = 2_048

  private struct Node: Sendable {
    var label: String
    var depth: Int
    var samples = 0
    var children: [String: Int] = [:]
    var isMarker = false
  }

  /// The most frames of one path written; deeper frames are folded into the marker.
  public let maximumDepth: Int
  private var nodes = [Node(label: "", depth: 0)]

  /// Creates an empty set of stacks.
  public init(maximumDepth: Int = FoldedStacks.defaultMaximumDepth) { self.maximumDepth = max(1, maximumDepth) }

  /// The root, under which paths start.
  public static let root = 0

  /// Whether no sample was added.
  public var isEmpty: Bool { !nodes.contains { $0.samples > 0 } }

  /// The node of `label` under `parent`, made when new. Under a node at the maximum depth this is
  /// the marker node, and under the marker the marker itself.
  public mutating func child(of parent: Int, _ label: String) -> Int {
    if nodes[parent].isMarker { return parent }
    let atLimit = nodes[parent].depth >= maximumDepth
    let key = atLimit ? Self.elisionMarker : Self.safeLabel(label)
    if let known = nodes[parent].children[key] { return known }
    let index = nodes.count
    nodes.append(Node(label: key, depth: nodes[parent].depth + 1, isMarker: atLimit))
    nodes[parent].children[key] = index
    return index
  }

  /// Adds samples ending at `node`.
  public mutating func addSamples(_ count: Int, at node: Int) {
    // Saturating: a stack's samples summed over any number of diagnostics cannot trap.
    let (sum, overflow) = nodes[node].samples.addingReportingOverflow(count)
    nodes[node].samples = overflow ? .max : sum
  }

  /// Adds the stacks of a call stack tree under `parent` (e.g. the diagnostic kind's node): every path
  /// from a root to a frame with samples of its own, outermost frame first, weighted by sample count.
  /// Linear in the tree's size (capped at `maximumDepth` frames per line for per-thread trees).
  public mutating func add(_ tree: CallStackTree, under parent: Int) {
    let frames = tree.frames
    if tree.callStackPerThread {
      // Roots are innermost, so each path from a leaf (outermost) up to its root is one line.
      var up = [Int](repeating: -1, count: frames.count)
      for (i, frame) in frames.enumerated() { for child in frame.subFrames { up[child] = i } }
      for stack in tree.callStacks {
        var pending = Array(stack.rootFrames.reversed())
        while let index = pending.popLast() {
          let frame = frames[index]
          if frame.subFrames.isEmpty {
            var node = parent
            var i = index
            walk: while i >= 0 {
              for label in Self.labels(frames[i]) {
                node = child(of: node, label)
                if nodes[node].isMarker { break walk }
              }
              i = up[i]
            }
            addSamples(max(frame.sampleCount, 1), at: node)
          }
          pending.append(contentsOf: frame.subFrames.reversed())
        }
      }
    } else {
      // Roots are outermost: each frame's node is its parent's node's child, made once.
      for stack in tree.callStacks {
        var pending = stack.rootFrames.reversed().map { ($0, parent) }
        while let (index, parentNode) = pending.popLast() {
          let frame = frames[index]
          let node = Self.labels(frame).reduce(parentNode) { child(of: $0, $1) }
          let childSamples = frame.subFrames.reduce(0) { $0 + frames[$1].sampleCount }
          let own = frame.subFrames.isEmpty ? frame.sampleCount : max(0, frame.sampleCount - childSamples)
          if own > 0 { addSamples(own, at: node) }
          pending.append(contentsOf: frame.subFrames.reversed().map { ($0, node) })
        }
      }
    }
  }

  /// A frame's labels, outermost first: its functions when symbolicated (the function, then those
  /// inlined into it), else `binary+0xoffset`.
  static func labels(_ frame: CallStackTree.Frame) -> [String] {
    frame.symbols.isEmpty ? [frame.label] : frame.symbols.reversed().map(\.shortFunction)
  }

  /// Adds other stacks (of disjoint inputs).
  public mutating func merge(_ other: FoldedStacks) {
    var pending = [(Self.root, Self.root)]  // (node in other, node here)
    while let (theirs, mine) = pending.popLast() {
      nodes[mine].samples += other.nodes[theirs].samples
      for (label, child) in other.nodes[theirs].children {
        pending.append((child, self.child(of: mine, label)))
      }
    }
  }

  /// Calls `body` with each path that has samples (labels outermost first) and its samples, depth
  /// first, siblings in byte-wise order. The path array is reused between calls.
  public func forEachPath(_ body: ([String], Int) -> Void) {
    var path: [String] = []
    // (node, depth in path); a node is entered when popped, its children pushed in reverse order.
    var pending = [(Self.root, 0)]
    while let (index, depth) = pending.popLast() {
      path.removeLast(path.count - depth)
      let node = nodes[index]
      if index != Self.root { path.append(node.label) }
      if node.samples > 0 { body(path, node.samples) }
      let sorted = node.children.sorted { $0.key.precedesBytewise($1.key) }
      for (_, child) in sorted.reversed() { pending.append((child, path.count)) }
    }
  }

  /// Calls `body` with each line (`frame;frame count`, no line break), prefixed with `prefix`
  /// frames, in the order of ``forEachPath(_:)``.
  public func forEachLine(prefix: [String] = [], _ body: (String) -> Void) {
    let head = prefix.map(Self.safeLabel)
    forEachPath { path, samples in
      body((head + path).joined(separator: ";") + " \(samples)")
    }
  }

  /// A frame label safe in the folded format: no `;` (the frame separator, shown as `,`), and no line
  /// break or other unsafe scalar (shown as a terminal escape).
  static func safeLabel(_ label: String) -> String {
    TextEscaping.terminal(label.contains(";") ? label.replacingOccurrences(of: ";", with: ",") : label)
  }
}

extension CallStackTree {
  /// Collapsed stacks for flame graphs (`outermost;…;innermost count`), weighted by sample count:
  /// every path from a root to a frame that has samples of its own, siblings in byte-wise order.
  /// ``FoldedStacks`` builds them for many trees at once, with a depth bound.
  public func foldedStacks() -> [(stack: [String], count: Int)] {
    var stacks = FoldedStacks(maximumDepth: .max)
    stacks.add(self, under: FoldedStacks.root)
    var out: [(stack: [String], count: Int)] = []
    stacks.forEachPath { out.append(($0, $1)) }
    return out
  }
}
