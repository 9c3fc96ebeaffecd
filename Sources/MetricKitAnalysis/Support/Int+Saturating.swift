extension Int {
  /// `value` rounded toward zero, the nearest bound for a value beyond `Int`'s range, 0 for NaN: the
  /// conversion every rendered number goes through, so no input makes a renderer trap.
  init(saturating value: Double) {
    if value.isNaN {
      self = 0
    } else if value >= 0x1p63 {
      self = .max
    } else if value < -0x1p63 {
      self = .min
    } else {
      self = Int(value)
    }
  }
}
