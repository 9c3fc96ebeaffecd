// Embedded Swift in the app of the symbolication tests: mangled names the runtime demangles.
public struct FeedViewController {
  var rows: Int

  @inline(never)
  public mutating func reload() -> Int {
    rows &+= 3  // @reload.body
    return rows
  }
}

@inline(never)
public func startFeed(_ n: Int) -> Int {
  var feed = FeedViewController(rows: n)
  return feed.reload() &+ 1
}
