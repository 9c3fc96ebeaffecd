/// Prose broken at spaces for a terminal of a given width (the fitted layouts of compare and summary).
enum TextWrapping {
  /// `line` broken at spaces into lines of at most `columns` characters (a word longer than that on a
  /// line of its own), the lines after the first indented by two more spaces than `indent`; each line
  /// ends with a newline.
  static func wrapped(_ line: String, columns: Int, indent: String = "") -> String {
    var out = ""
    var current = indent
    var empty = true
    for word in line.split(separator: " ", omittingEmptySubsequences: false) {
      let separator = empty ? "" : " "
      if !empty, current.count + separator.count + word.count > columns {
        out += current + "\n"
        current = indent + "  " + word
      } else {
        current += separator + word
      }
      empty = false
    }
    return out + current + "\n"
  }
}
