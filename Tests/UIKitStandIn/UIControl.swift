import Foundation

/// Stands in for `UIControl`: state, and target-action pairs per event.
@MainActor
open class UIControl: UIView {
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
    }

    public struct Event: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let valueChanged = Event(rawValue: 1 << 12)
    }

    open var isEnabled = true
    open var isSelected = false

    private var actions: [(target: AnyObject?, action: Selector, events: Event)] = []

    open func addTarget(_ target: Any?, action: Selector, for controlEvents: Event) {
        actions.append((target as AnyObject?, action, controlEvents))
    }

    /// The names of the actions sent to `target` for `controlEvent`, or `nil` when there are none.
    open func actions(forTarget target: Any?, forControlEvent controlEvent: Event) -> [String]? {
        let target = target as AnyObject?
        let names = actions.filter { $0.target === target && $0.events.contains(controlEvent) }
            .map(\.action.description)
        return names.isEmpty ? nil : names
    }
}

/// Stands in for `UIButton`: a title, attributed title, image and background image per state.
@MainActor
open class UIButton: UIControl {
    private var titles: [UIControl.State: String] = [:]
    private var attributedTitles: [UIControl.State: NSAttributedString] = [:]
    private var images: [UIControl.State: UIImage] = [:]
    private var backgroundImages: [UIControl.State: UIImage] = [:]

    open func setTitle(_ title: String?, for state: UIControl.State) { titles[state] = title }
    open func title(for state: UIControl.State) -> String? { titles[state] }

    open func setAttributedTitle(_ title: NSAttributedString?, for state: UIControl.State) {
        attributedTitles[state] = title
    }
    open func attributedTitle(for state: UIControl.State) -> NSAttributedString? { attributedTitles[state] }

    open func setImage(_ image: UIImage?, for state: UIControl.State) { images[state] = image }
    open func image(for state: UIControl.State) -> UIImage? { images[state] }

    open func setBackgroundImage(_ image: UIImage?, for state: UIControl.State) { backgroundImages[state] = image }
    open func backgroundImage(for state: UIControl.State) -> UIImage? { backgroundImages[state] }
}

/// Stands in for `UISwitch`.
@MainActor
open class UISwitch: UIControl {
    open var isOn = false
}

/// Stands in for `UIPageControl`.
@MainActor
open class UIPageControl: UIControl {
    open var numberOfPages = 0
    open var currentPage = 0
}

/// Stands in for `UISegmentedControl`: an ordered list of segment titles and a selection.
@MainActor
open class UISegmentedControl: UIControl {
    public static let noSegment = -1

    private var segmentTitles: [String?] = []
    open var selectedSegmentIndex = UISegmentedControl.noSegment

    open var numberOfSegments: Int { segmentTitles.count }

    open func removeAllSegments() {
        segmentTitles.removeAll()
        selectedSegmentIndex = UISegmentedControl.noSegment
    }

    open func insertSegment(withTitle title: String?, at segment: Int, animated: Bool) {
        segmentTitles.insert(title, at: min(max(segment, 0), segmentTitles.count))
    }

    open func setTitle(_ title: String?, forSegmentAt segment: Int) {
        guard segmentTitles.indices.contains(segment) else { return }
        segmentTitles[segment] = title
    }

    open func titleForSegment(at segment: Int) -> String? {
        segmentTitles.indices.contains(segment) ? segmentTitles[segment] : nil
    }
}

/// Stands in for `UITextField`.
@MainActor
open class UITextField: UIControl {
    open var text: String?
}
