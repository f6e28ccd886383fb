/// A namespace for the binders of one object: `label.binding[\.text]`.
public struct Bindable<TargetType> {
    /// The object the binders write to.
    public let target: TargetType

    /// Creates the binders of `target`; `target.binding` (``BindableCompatible``) makes one for you.
    public init(_ target: TargetType) {
        self.target = target
    }
}

/// A type whose instances offer ``Bindable`` binders through `binding`.
///
/// Conform your own view classes to get key-path binders on every platform:
/// ```swift
/// final class Label: BindableCompatible { var text = "" }
/// viewModel.title.bind(to: label.binding[\.text])
/// ```
public protocol BindableCompatible {
    /// The type whose binders `binding` offers: `Self` for a final class, the conforming class for a
    /// class hierarchy (as in the original framework, so `Bindable<T.CompatibleType>` is spelled the same).
    associatedtype CompatibleType
    /// The binders of this object.
    var binding: Bindable<CompatibleType> { get }
}

extension BindableCompatible {
    /// The binders of this object.
    public var binding: Bindable<Self> { Bindable(self) }
}

extension Bindable where TargetType: AnyObject {
    /// A Binder writing to the property at `keyPath`.
    public subscript<Value>(keyPath: ReferenceWritableKeyPath<TargetType, Value>) -> Binder<Value> {
        Binder(target, keyPath)
    }

    /// A Binder writing non-optional values to the optional property at `keyPath`.
    public subscript<Value>(keyPath: ReferenceWritableKeyPath<TargetType, Value?>) -> Binder<Value> {
        Binder(target, keyPath)
    }
}
