/// An icicle (a flame graph hanging from its root) of collapsed stacks, as static SVG: one nested
/// `<g>` per frame, outermost at the top, each as wide as its samples (its own and its callees')
/// over all samples. Frames narrower than ``minimumWidth`` are left out (their samples stay in their
/// caller's width). The page's script zooms into a frame on click.
enum FlameGraph {
  static let width = 1_000.0
  static let rowHeight = 17.0
  /// The narrowest frame drawn, in the drawing's units.
  static let minimumWidth = 0.5
  /// The deepest row drawn.
  static let maximumRows = 64

  /// A frame of the tree: its label, its samples and its callees'.
  final class Node {
    let label: String
    var total = 0
    var children: [String: Node] = [:]
    var order: [String] = []

    init(label: String) { self.label = label }

    func child(_ label: String) -> Node {
      if let known = children[label] { return known }
      let made = Node(label: label)
      children[label] = made
      order.append(label)
      return made
    }
  }

  /// The tree of `stacks`' paths, each node's total its samples and those below it.
  static func tree(_ stacks: FoldedStacks) -> Node {
    let root = Node(label: "all")
    stacks.forEachPath { path, samples in
      var node = root
      root.total += samples
      for label in path {
        node = node.child(label)
        node.total += samples
      }
    }
    return root
  }

  /// The SVG, or nil when there is no sample.
  static func svg(_ stacks: FoldedStacks, id: String, title: String) -> String? {
    let root = tree(stacks)
    guard root.total > 0 else { return nil }
    var rows = 0
    var body = ""
    let c = ChartScale.coordinate
    func draw(_ node: Node, x: Double, depth: Int) {
      let w = Double(node.total) / Double(root.total) * width
      guard w >= minimumWidth, depth < maximumRows else { return }
      rows = max(rows, depth + 1)
      let y = Double(depth) * rowHeight
      body += "<g class=\"frame\" data-label=\"\(TextEscaping.html(node.label))\" data-count=\"\(node.total)\">"
      body += "<rect x=\"\(c(x))\" y=\"\(c(y))\" width=\"\(c(w))\" height=\"\(c(rowHeight - 1))\" "
      body += "fill=\"\(colour(node.label, depth: depth))\"><title>\(TextEscaping.html(node.label)): "
      body += "\(node.total) samples (\(NumberFormatting.text(Double(node.total) / Double(root.total) * 100))%)"
      body += "</title></rect>"
      // A label where it fits: about 6.5 units a character.
      let characters = Int((w - 6) / 6.5)
      if characters >= 3 {
        let text = node.label.count > characters ? String(node.label.prefix(characters - 1)) + "…" : node.label
        body += "<text x=\"\(c(x + 3))\" y=\"\(c(y + 12))\">\(TextEscaping.html(text))</text>"
      }
      var childX = x
      let sorted = node.order.sorted { $0.precedesBytewise($1) }
      for label in sorted {
        let child = node.children[label]!
        draw(child, x: childX, depth: depth + 1)
        childX += Double(child.total) / Double(root.total) * width
      }
      body += "</g>"
    }
    draw(root, x: 0, depth: 0)
    let height = Double(rows) * rowHeight
    var out = "<svg class=\"flame\" id=\"\(id)\" viewBox=\"0 0 \(c(width)) \(c(height))\" "
    out += "role=\"img\" aria-label=\"\(TextEscaping.html(title))\" data-total=\"\(root.total)\">"
    return out + body + "</svg>"
  }

  /// A warm colour from the label, the same for a frame wherever it appears.
  static func colour(_ label: String, depth: Int) -> String {
    if depth == 0 { return "#9aa5ad" }
    let h = FNV1a.hash(label.utf8)
    let hue = 10 + Int(h % 40)
    let lightness = 62 + Int((h / 40) % 14)
    return "hsl(\(hue), 78%, \(lightness)%)"
  }
}
