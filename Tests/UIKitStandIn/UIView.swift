import Foundation

/// Stands in for `UIResponder`.
@MainActor
open class UIResponder {
    public init() {}
}

/// Stands in for `UIView`.
@MainActor
open class UIView: UIResponder {
    open var isHidden = false
    open var alpha: CGFloat = 1
    open var backgroundColor: UIColor?
    open var isUserInteractionEnabled = true
    open var accessibilityIdentifier: String?
    public let layer = CALayer()

    /// `nil` restores the inherited colour, which here is UIKit's default blue.
    open var tintColor: UIColor! {
        get { ownTintColor ?? UIColor(red: 0, green: 0.478, blue: 1, alpha: 1) }
        set { ownTintColor = newValue }
    }
    private var ownTintColor: UIColor?

    /// The active constraints this view holds.
    open internal(set) var constraints: [NSLayoutConstraint] = []

    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(view: self) }

    public override init() {}

    /// Applies `animations` at once: after the call the view reports the final values, as UIKit's do.
    open class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animations()
    }
}

/// Stands in for `NSLayoutDimension`.
@MainActor
public struct NSLayoutDimension {
    let view: UIView

    public func constraint(equalToConstant constant: CGFloat) -> NSLayoutConstraint {
        NSLayoutConstraint(view: view, constant: constant)
    }
}

/// Stands in for `NSLayoutConstraint`: activating adds it to its view's `constraints`, deactivating removes it.
@MainActor
open class NSLayoutConstraint {
    open var constant: CGFloat
    private weak var view: UIView?

    init(view: UIView, constant: CGFloat) {
        self.view = view
        self.constant = constant
    }

    open var isActive: Bool {
        get { view?.constraints.contains { $0 === self } ?? false }
        set {
            guard let view, newValue != isActive else { return }
            if newValue {
                view.constraints.append(self)
            } else {
                view.constraints.removeAll { $0 === self }
            }
        }
    }
}

/// Stands in for `UIGestureRecognizer`.
@MainActor
open class UIGestureRecognizer {
    open var isEnabled = true

    public init() {}
}
