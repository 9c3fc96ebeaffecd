/// The three responses, member by member. Each member a response may hold is read here or counted
/// as unknown; each value is checked for its type.
extension OrganizerDecoder {
  /// Which response the root is, and its reading.
  mutating func document(_ root: JSONValue) throws(Failure) -> OrganizerFile.Document {
    guard root.kind == .object else {
      throw failure("expected an App Store Connect response object, found \(Self.describe(root))")
    }
    if root.member("data") != nil { return .signatures(try signatures(root)) }
    guard let products = root.member("productData") else {
      throw failure(
        "not a power and performance response: no 'productData' (metrics, logs) or 'data' (signatures)")
    }
    var isLogs = false
    if products.kind == .array {
      for product in products.children where product.kind == .object {
        isLogs = product.member("diagnosticLogs") != nil || product.member("signatureId") != nil
        break
      }
    }
    return isLogs ? .logs(try logs(root)) : .metrics(try metrics(root))
  }

  // MARK: - perfPowerMetrics

  mutating func metrics(_ root: JSONValue) throws(Failure) -> OrganizerMetrics {
    var result = OrganizerMetrics()
    try members(root) { (d, key, value) throws(Failure) in
      switch key {
      case "version": result.version = try d.string(value)
      case "insights":
        try d.members(value) { (d, key, value) throws(Failure) in
          switch key {
          case "regressions":
            try d.elements(value) { (d, v) throws(Failure) in result.regressions.append(try d.insight(v)) }
          case "trendingUp":
            try d.elements(value) { (d, v) throws(Failure) in result.trendingUp.append(try d.insight(v)) }
          default: return false
          }
          return true
        }
      case "productData":
        try d.elements(value) { (d, v) throws(Failure) in result.products.append(try d.product(v)) }
      default: return false
      }
      return true
    }
    return result
  }

  mutating func insight(_ value: JSONValue) throws(Failure) -> OrganizerInsight {
    var insight = OrganizerInsight(metric: "")
    var named = false
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "metric":
        insight.metric = try d.string(value) ?? ""
        named = true
      case "metricCategory": insight.metricCategory = try d.string(value)
      case "latestVersion": insight.latestVersion = try d.string(value)
      case "maxLatestVersionValue": insight.maxLatestVersionValue = try d.number(value)
      case "referenceVersions": insight.referenceVersions = try d.versions(value)
      case "summaryString": insight.summaryString = try d.string(value)
      case "subSystemLabel": insight.subSystemLabel = try d.string(value)
      case "highImpact": insight.highImpact = try d.bool(value)
      case "populations":
        try d.elements(value) { (d, v) throws(Failure) in insight.populations.append(try d.population(v)) }
      default: return false
      }
      return true
    }
    guard named, !insight.metric.isEmpty else { throw failure("an insight without its 'metric'") }
    return insight
  }

  /// Reference versions: a list of strings, or one string of them (`"1.0, 1.1"`) as the object's
  /// reference says.
  func versions(_ value: JSONValue) throws(Failure) -> [String] {
    switch value.kind {
    case .null: return []
    case .string:
      return (value.string ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    case .array:
      var list: [String] = []
      for element in value.children {
        guard let s = element.string else {
          throw failure("expected version strings, found \(Self.describe(element))")
        }
        list.append(s)
      }
      return list
    default: throw failure("expected a list of versions, found \(Self.describe(value))")
    }
  }

  mutating func population(_ value: JSONValue) throws(Failure) -> OrganizerInsight.Population {
    var population = OrganizerInsight.Population()
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "device": population.device = try d.string(value)
      case "percentile": population.percentileText = try d.string(value)
      case "deltaPercentage": population.deltaPercentage = try d.number(value)
      case "latestVersionValue": population.latestVersionValue = try d.number(value)
      case "referenceAverageValue": population.referenceAverageValue = try d.number(value)
      case "summaryString": population.summaryString = try d.string(value)
      default: return false
      }
      return true
    }
    return population
  }

  mutating func product(_ value: JSONValue) throws(Failure) -> OrganizerMetrics.Product {
    var product = OrganizerMetrics.Product(platform: nil, categories: [])
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "platform": product.platform = try d.string(value)
      case "metricCategories":
        try d.elements(value) { (d, v) throws(Failure) in product.categories.append(try d.category(v)) }
      default: return false
      }
      return true
    }
    return product
  }

  mutating func category(_ value: JSONValue) throws(Failure) -> OrganizerMetrics.Category {
    // The identifier first, so that each metric knows its category whatever the members' order.
    let identifier = try value.member("identifier").map { (v) throws(Failure) in try string(v) } ?? nil
    guard let identifier, !identifier.isEmpty else { throw failure("a metric category without its 'identifier'") }
    var category = OrganizerMetrics.Category(identifier: identifier, metrics: [])
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "identifier": break
      case "metrics":
        try d.elements(value) { (d, v) throws(Failure) in category.metrics.append(try d.metric(v, category: identifier))
        }
      default: return false
      }
      return true
    }
    return category
  }

  mutating func metric(_ value: JSONValue, category: String) throws(Failure) -> OrganizerMetrics.Metric {
    var metric = OrganizerMetrics.Metric(category: category, identifier: "", unit: nil, goalKeys: [], datasets: [])
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "identifier": metric.identifier = try d.string(value) ?? ""
      case "unit":
        var unit = OrganizerMetrics.Unit(identifier: nil, displayName: nil)
        try d.members(value) { (d, key, value) throws(Failure) in
          switch key {
          case "identifier": unit.identifier = try d.string(value)
          case "displayName": unit.displayName = try d.string(value)
          default: return false
          }
          return true
        }
        metric.unit = unit
      case "goalKeys":
        try d.elements(value) { (d, v) throws(Failure) in metric.goalKeys.append(try d.goalKey(v)) }
      case "datasets":
        try d.elements(value) { (d, v) throws(Failure) in metric.datasets.append(try d.dataset(v)) }
      default: return false
      }
      return true
    }
    guard !metric.identifier.isEmpty else { throw failure("a metric without its 'identifier'") }
    return metric
  }

  mutating func goalKey(_ value: JSONValue) throws(Failure) -> OrganizerMetrics.GoalKey {
    var goal = OrganizerMetrics.GoalKey(goalKey: nil, lowerBound: nil, upperBound: nil)
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "goalKey": goal.goalKey = try d.string(value)
      case "lowerBound": goal.lowerBound = try d.number(value)
      case "upperBound": goal.upperBound = try d.number(value)
      default: return false
      }
      return true
    }
    if let low = goal.lowerBound, let high = goal.upperBound, low > high {
      throw failure(
        "goal band '\(goal.goalKey ?? "")' has its lower bound \(JSONWriter.number(low)) above its upper bound "
          + JSONWriter.number(high))
    }
    return goal
  }

  mutating func dataset(_ value: JSONValue) throws(Failure) -> OrganizerMetrics.Dataset {
    var dataset = OrganizerMetrics.Dataset(
      filter: OrganizerMetrics.FilterCriteria(percentileText: nil, device: nil, deviceMarketingName: nil), points: [])
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "filterCriteria":
        try d.members(value) { (d, key, value) throws(Failure) in
          switch key {
          case "percentile": dataset.filter.percentileText = try d.string(value)
          case "device": dataset.filter.device = try d.string(value)
          case "deviceMarketingName": dataset.filter.deviceMarketingName = try d.string(value)
          default: return false
          }
          return true
        }
      case "points":
        try d.elements(value) { (d, v) throws(Failure) in dataset.points.append(try d.point(v)) }
      default: return false
      }
      return true
    }
    return dataset
  }

  mutating func point(_ value: JSONValue) throws(Failure) -> OrganizerMetrics.Point {
    var version: String?
    var number: Double?
    var point = OrganizerMetrics.Point(version: "", value: 0)
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "version": version = try d.string(value)
      case "value": number = try d.number(value)
      case "errorMargin": point.errorMargin = try d.number(value)
      case "goal": point.goal = try d.string(value)
      case "percentageBreakdown":
        var breakdown = OrganizerMetrics.Breakdown(value: nil, subSystemLabel: nil)
        try d.members(value) { (d, key, value) throws(Failure) in
          switch key {
          case "value": breakdown.value = try d.number(value)
          case "subSystemLabel": breakdown.subSystemLabel = try d.string(value)
          default: return false
          }
          return true
        }
        point.percentageBreakdown = breakdown
      default: return false
      }
      return true
    }
    guard let version, !version.isEmpty else { throw failure("a point without its 'version'") }
    guard let number else { throw failure("the point of version \(version) has no 'value'") }
    point.version = version
    point.value = number
    return point
  }

  // MARK: - diagnosticSignatures

  mutating func signatures(_ root: JSONValue) throws(Failure) -> OrganizerSignatures {
    var page = OrganizerSignatures(signatures: [])
    try members(root) { (d, key, value) throws(Failure) in
      switch key {
      case "data":
        try d.elements(value) { (d, v) throws(Failure) in page.signatures.append(try d.signature(v)) }
      case "links":
        try d.members(value) { (d, key, value) throws(Failure) in
          switch key {
          case "next": page.nextPage = try d.string(value)
          case "self", "first": _ = try d.string(value)
          default: return false
          }
          return true
        }
      case "meta":
        try d.members(value) { (d, key, value) throws(Failure) in
          guard key == "paging" else { return false }
          try d.members(value) { (d, key, value) throws(Failure) in
            switch key {
            case "total": page.total = try d.integer(value)
            case "limit": _ = try d.integer(value)
            default: return false
            }
            return true
          }
          return true
        }
      case "included": break  // related resources this reading does not use
      default: return false
      }
      return true
    }
    return page
  }

  mutating func signature(_ value: JSONValue) throws(Failure) -> OrganizerSignatures.Signature {
    var signature = OrganizerSignatures.Signature(id: "")
    var type: String?
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "type": type = try d.string(value)
      case "id": signature.id = try d.string(value) ?? ""
      case "attributes":
        try d.members(value) { (d, key, value) throws(Failure) in
          switch key {
          case "diagnosticType": signature.diagnosticType = try d.string(value)
          case "signature": signature.signature = try d.string(value)
          case "weight": signature.weight = try d.number(value)
          case "insight":
            // An object in newer responses ({"direction", "insightType", …}); its text is kept.
            if value.kind == .object {
              var parts: [String] = []
              try d.members(value) { (d, _, value) throws(Failure) in
                if value.kind == .string, let s = value.string { parts.append(s) }
                return true
              }
              signature.insight = parts.joined(separator: " ")
            } else {
              signature.insight = try d.string(value)
            }
          default: return false
          }
          return true
        }
      case "relationships":
        try d.members(value) { (d, key, value) throws(Failure) in
          guard key == "logs" else { return false }
          try d.members(value) { (d, key, value) throws(Failure) in
            guard key == "links" else { return false }
            try d.members(value) { (d, key, value) throws(Failure) in
              switch key {
              case "related": signature.logsAddress = try d.string(value)
              case "self": _ = try d.string(value)
              default: return false
              }
              return true
            }
            return true
          }
          return true
        }
      case "links": break
      default: return false
      }
      return true
    }
    if let type, type != "diagnosticSignatures" {
      throw failure("expected resources of type 'diagnosticSignatures', found \"\(type)\"")
    }
    guard !signature.id.isEmpty else { throw failure("a signature without its 'id'") }
    return signature
  }

  // MARK: - diagnosticSignatures/{id}/logs

  mutating func logs(_ root: JSONValue) throws(Failure) -> OrganizerLogs {
    var result = OrganizerLogs(signatures: [])
    try members(root) { (d, key, value) throws(Failure) in
      switch key {
      case "version": result.version = try d.string(value)
      case "productData":
        try d.elements(value) { (d, v) throws(Failure) in result.signatures.append(try d.signatureLogs(v)) }
      default: return false
      }
      return true
    }
    return result
  }

  mutating func signatureLogs(_ value: JSONValue) throws(Failure) -> OrganizerLogs.SignatureLogs {
    var entry = OrganizerLogs.SignatureLogs(signatureID: nil, insights: [], logs: [])
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "signatureId": entry.signatureID = try d.string(value)
      case "diagnosticInsights":
        try d.elements(value) { (d, v) throws(Failure) in
          var insight = OrganizerLogs.Insight(category: nil, text: nil, url: nil)
          try d.members(v) { (d, key, value) throws(Failure) in
            switch key {
            case "insightsCategory": insight.category = try d.string(value)
            case "insightsString": insight.text = try d.string(value)
            case "insightsURL": insight.url = try d.string(value)
            default: return false
            }
            return true
          }
          entry.insights.append(insight)
        }
      case "diagnosticLogs":
        try d.elements(value) { (d, v) throws(Failure) in entry.logs.append(try d.log(v)) }
      default: return false
      }
      return true
    }
    return entry
  }

  mutating func log(_ value: JSONValue) throws(Failure) -> OrganizerLogs.Log {
    var log = OrganizerLogs.Log(metaData: [:], callStackTrees: [], blameFrames: [])
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "diagnosticMetaData":
        try d.members(value) { (d, key, value) throws(Failure) in
          switch value.kind {
          case .string: log.metaData[key] = value.string
          case .integer, .double: log.metaData[key] = Self.describe(value)
          case .bool: log.metaData[key] = value.bool == true ? "true" : "false"
          case .null: break
          default: throw d.failure("expected text, found \(Self.describe(value))")
          }
          return true
        }
      case "callStackTree":
        // An array of trees here (a single object in MetricKit's own payloads: read both).
        if value.kind == .object {
          let (tree, blame) = try d.tree(value)
          log.callStackTrees.append(tree)
          log.blameFrames.append(blame)
        } else {
          try d.elements(value) { (d, v) throws(Failure) in
            let (tree, blame) = try d.tree(v)
            log.callStackTrees.append(tree)
            log.blameFrames.append(blame)
          }
        }
      default: return false
      }
      return true
    }
    return log
  }

  mutating func tree(_ value: JSONValue) throws(Failure) -> (CallStackTree, [Int]) {
    var tree = CallStackTree(callStackPerThread: false)
    var blame: [Int] = []
    try members(value) { (d, key, value) throws(Failure) in
      switch key {
      case "callStackPerThread": tree.callStackPerThread = try d.bool(value) ?? false
      case "callStacks":
        try d.elements(value) { (d, v) throws(Failure) in
          var stack = CallStackTree.CallStack(threadAttributed: nil, rootFrames: [])
          try d.members(v) { (d, key, value) throws(Failure) in
            switch key {
            case "threadAttributed": stack.threadAttributed = try d.bool(value)
            case "callStackRootFrames":
              try d.elements(value) { (d, v) throws(Failure) in
                stack.rootFrames.append(try d.frames(v, into: &tree, blame: &blame))
              }
            default: return false
            }
            return true
          }
          tree.callStacks.append(stack)
        }
      default: return false
      }
      return true
    }
    return (tree, blame)
  }

  /// Reads a root frame and every frame under it into `tree`, without recursion (Apple's trees nest
  /// as deep as the stack); returns the root's index.
  mutating func frames(_ root: JSONValue, into tree: inout CallStackTree, blame: inout [Int]) throws(Failure) -> Int {
    // Each pending entry: a frame object, its parent's index (or -1) and its depth.
    var pending: [(value: JSONValue, parent: Int, depth: Int)] = [(root, -1, 0)]
    var rootIndex = -1
    while let (value, parent, depth) = pending.popLast() {
      let index = tree.frames.count
      var frame = CallStackTree.Frame(
        binaryUUID: nil, binaryName: nil, offsetIntoBinaryTextSegment: 0, address: nil, sampleCount: 0,
        subFrames: [], depth: depth)
      var symbolName: String?
      var file: String?
      var line: Int?
      var isBlame = false
      var children: [JSONValue] = []
      try members(value) { (d, key, value) throws(Failure) in
        switch key {
        case "symbolName": symbolName = try d.string(value)
        case "fileName": file = try d.string(value)
        case "lineNumber": line = try d.integer(value)
        case "binaryName": frame.binaryName = try d.string(value)
        case "binaryUUID": frame.binaryUUID = try d.string(value)
        case "address": frame.address = try d.address(value)
        case "offsetIntoBinaryTextSegment": frame.offsetIntoBinaryTextSegment = try d.address(value) ?? 0
        case "sampleCount": frame.sampleCount = max(0, try d.integer(value) ?? 0)
        case "isBlameFrame": isBlame = try d.bool(value) ?? false
        case "offsetIntoSymbol": _ = try d.number(value)
        case "rawFrame", "insightsCategory": _ = try d.string(value)
        case "subFrames":
          if value.kind == .null { break }
          guard value.kind == .array else { throw d.failure("expected an array, found \(Self.describe(value))") }
          children = Array(value.children)
        default: return false
        }
        return true
      }
      if let symbolName, !symbolName.isEmpty {
        frame.symbols = [
          FrameSymbol(function: symbolName, file: file, line: line.flatMap { FrameSymbol.position(Int64($0)) })
        ]
      }
      tree.frames.append(frame)
      if isBlame { blame.append(index) }
      if parent >= 0 { tree.frames[parent].subFrames.append(index) } else { rootIndex = index }
      // Pushed in reverse so that siblings are read, and numbered, in order.
      for child in children.reversed() { pending.append((child, index, depth + 1)) }
    }
    return rootIndex
  }
}
