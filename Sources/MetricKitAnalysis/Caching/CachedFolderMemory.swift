/// The folder memory of a reading through an ``AggregateCache``: the folders' listings, which every
/// reading shares, and their summaries for readings of one scope (the same options and file endings,
/// so the same batches and keys).
struct CachedFolderMemory: FolderMemory {
  let cache: AggregateCache
  /// What sets a summary's readings apart besides the folder: the start of the batches' keys (the
  /// format and the options' fingerprint) and the file endings read; hashed once for every folder.
  let scope: ContentHash.Start

  init(cache: AggregateCache, keyBase: AggregateCache.KeyBase, fileSuffixes: [String]?) {
    self.cache = cache
    scope = ContentHash.Start(keyBase.prefix + Array("endings \(fileSuffixes?.debugDescription ?? "-")\n".utf8))
  }

  func recalledListing(of folder: InputPath) -> FolderListing? { cache.recalledListing(of: folder) }

  func remember(_ listing: FolderListing, of folder: InputPath) { cache.remember(listing, of: folder) }

  func summary(of folder: InputPath) -> FolderSummary? {
    guard let bytes = AggregateCache.contents(ofRegularFile: cache.folderSummaryPath(folder, scope: scope)),
      let (path, summary) = try? AggregateCache.decodeFolderSummary(bytes), path == folder
    else { return nil }
    return summary
  }

  func remember(_ summary: FolderSummary, of folder: InputPath) {
    _ = AggregateCache.writeAtomically(
      AggregateCache.folderSummaryBytes(summary, of: folder), to: cache.folderSummaryPath(folder, scope: scope))
  }
}
