@_exported import Foundation

/// Stands in for Core Graphics' colour: equal when the components are equal.
public final class CGColor: Equatable, CustomStringConvertible {
    public let components: [CGFloat]

    public init(components: [CGFloat]) {
        self.components = components
    }

    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.components == rhs.components
    }

    public var description: String { "CGColor\(components)" }
}

/// Stands in for `UIColor`; equal (`isEqual`, as `NSObject`) when the components are equal.
open class UIColor: NSObject {
    private let rgba: [CGFloat]

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        rgba = [red, green, blue, alpha]
    }

    public var cgColor: CGColor { CGColor(components: rgba) }

    open override func isEqual(_ object: Any?) -> Bool {
        (object as? UIColor)?.rgba == rgba
    }

    open override var hash: Int { rgba.hashValue }

    open override var description: String { "UIColor\(rgba)" }

    public class var black: UIColor { UIColor(red: 0, green: 0, blue: 0, alpha: 1) }
    public class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    public class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
    public class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
}

/// Stands in for `UIImage`: an image is known by its name.
open class UIImage: NSObject {
    public let name: String

    public init?(named name: String) {
        self.name = name
    }
}

/// Stands in for the Objective-C selector type.
public struct Selector: Hashable, CustomStringConvertible {
    public let description: String

    public init(_ name: String) {
        description = name
    }
}

/// Stands in for Core Animation's layer: the border and corner properties.
open class CALayer {
    open var borderColor: CGColor?
    open var borderWidth: CGFloat = 0
    open var cornerRadius: CGFloat = 0

    public init() {}
}
