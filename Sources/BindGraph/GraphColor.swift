/// An sRGB colour with alpha, as Graphviz understands it (`#rrggbbaa`).
///
/// Kept as numbers rather than colour names so that every value is valid for Graphviz and a
/// faded variant can always be derived.
@_spi(Harness) public struct GraphColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 255 is opaque.
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` is optional); `nil` for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        if digits.count == 3 { digits = Substring(digits.flatMap { [$0, $0] }) }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(
            red: UInt8(rgba >> 24 & 0xFF),
            green: UInt8(rgba >> 16 & 0xFF),
            blue: UInt8(rgba >> 8 & 0xFF),
            alpha: UInt8(rgba & 0xFF)
        )
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var hexString: String {
        let components = alpha == 255 ? [red, green, blue] : [red, green, blue, alpha]
        return "#" + components.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The same colour with its opacity scaled by `opacity` (0…1).
    public func withOpacity(_ opacity: Double) -> GraphColor {
        var color = self
        color.alpha = UInt8((Double(alpha) * min(max(opacity, 0), 1)).rounded())
        return color
    }

    public static let black = GraphColor(red: 0x00, green: 0x00, blue: 0x00)
    public static let white = GraphColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    public static let gray = GraphColor(red: 0x88, green: 0x88, blue: 0x88)
    public static let red = GraphColor(red: 0xC6, green: 0x28, blue: 0x28)
    public static let orange = GraphColor(red: 0xEF, green: 0x6C, blue: 0x00)
    public static let green = GraphColor(red: 0x2E, green: 0x7D, blue: 0x32)
    public static let blue = GraphColor(red: 0x15, green: 0x65, blue: 0xC0)
    public static let purple = GraphColor(red: 0x6A, green: 0x1B, blue: 0x9A)
    public static let paleBlue = GraphColor(red: 0xDD, green: 0xE8, blue: 0xF5)
    public static let paleGreen = GraphColor(red: 0xDC, green: 0xF0, blue: 0xDC)
    public static let paleRed = GraphColor(red: 0xF8, green: 0xD7, blue: 0xDA)
    public static let paleYellow = GraphColor(red: 0xFF, green: 0xF4, blue: 0xCC)
    public static let paleGray = GraphColor(red: 0xEE, green: 0xEE, blue: 0xEE)
}
