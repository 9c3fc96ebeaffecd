/// A call stack tree (`MXCallStackTree`), stored flat so that trees of any depth are built, walked and
/// freed without recursion (MetricKit writes trees 86+ levels deep; a 1.5 MB hang tree is normal).
///
/// Orientation, as Apple writes them: in a per-thread tree (`callStackPerThread`, crashes and hangs)
/// a root frame is the innermost frame and its sub-frames are its callers; in an aggregated tree (CPU
/// exceptions) a root frame is the outermost caller and sub-frames are callees, with sample counts
/// that split between siblings.
public struct CallStackTree: Sendable, Hashable {
  /// One frame.
  public struct Frame: Sendable, Hashable {
    /// The binary's UUID.
    public var binaryUUID: String?
    /// The binary's name, when MetricKit knew it.
    public var binaryName: String?
    /// The offset of the instruction in the binary's text segment.
    public var offsetIntoBinaryTextSegment: UInt64
    /// The address.
    public var address: UInt64?
    /// Samples in this frame and below.
    public var sampleCount: Int
    /// The indices (in `frames`) of the sub-frames, in order.
    public var subFrames: [Int]
    /// The depth from the root frame (0).
    public var depth: Int
    /// The function, file and line of the instruction, innermost first (inlined functions, then
    /// the function they were inlined into); empty until a ``Symbolicator`` found them.
    public var symbols: [FrameSymbol] = []

    /// Creates a frame.
    public init(
      binaryUUID: String?, binaryName: String?, offsetIntoBinaryTextSegment: UInt64, address: UInt64?,
      sampleCount: Int, subFrames: [Int], depth: Int, symbols: [FrameSymbol] = []
    ) {
      self.binaryUUID = binaryUUID
      self.binaryName = binaryName
      self.offsetIntoBinaryTextSegment = offsetIntoBinaryTextSegment
      self.address = address
      self.sampleCount = sampleCount
      self.subFrames = subFrames
      self.depth = depth
      self.symbols = symbols
    }

    /// The binary's name, else the start of its UUID in angle brackets, else `???`.
    public var binaryLabel: String { binaryName ?? binaryUUID.map { "<\($0.prefix(8))>" } ?? "???" }

    /// `binaryName+0xoffset` (the offset from the `__TEXT` segment, load-address quirk undone).
    public var label: String { "\(binaryLabel)+0x\(String(imageOffset, radix: 16))" }
  }

  /// One thread's (or the aggregate's) stack.
  public struct CallStack: Sendable, Hashable {
    /// Whether the diagnostic is attributed to this thread (the crashed or hung thread).
    public var threadAttributed: Bool?
    /// The indices (in `frames`) of the root frames.
    public var rootFrames: [Int]
  }

  /// Whether each stack is one thread's (`callStackPerThread`).
  public var callStackPerThread: Bool
  /// The stacks.
  public var callStacks: [CallStack]
  /// Every frame of every stack, parents before children.
  public var frames: [Frame]

  /// Creates an empty tree.
  public init(callStackPerThread: Bool = true) {
    self.callStackPerThread = callStackPerThread
    callStacks = []
    frames = []
  }

  /// The deepest frame's depth plus one.
  public var depth: Int { frames.map(\.depth).max().map { $0 + 1 } ?? 0 }

  /// The stack the diagnostic is about: the attributed thread's, else the first.
  public var attributedStack: CallStack? {
    callStacks.first { $0.threadAttributed == true } ?? callStacks.first
  }

  /// The heaviest path of a stack, innermost frame first: from the root frame following, at each
  /// level, the sub-frame with the most samples (the first among equals).
  public func heaviestPath(_ stack: CallStack) -> [Frame] {
    guard var index = stack.rootFrames.max(by: { frames[$0].sampleCount < frames[$1].sampleCount }) else { return [] }
    var path = [frames[index]]
    while let next = frames[index].subFrames.max(by: { frames[$0].sampleCount < frames[$1].sampleCount }) {
      index = next
      path.append(frames[index])
    }
    return callStackPerThread ? path : path.reversed()
  }
}
