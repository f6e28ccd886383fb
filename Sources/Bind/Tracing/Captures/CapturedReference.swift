#if Tracing
/// One thing a closure's context holds that can keep an object alive (or says it cannot).
struct CapturedReference: Equatable {
    enum Strength: UInt8 { case strong = 0, weak = 1, unowned = 2, unknown = 3 }
    var strength: Strength
    /// The captured value's type name as `_typeName(_, qualified: false)` gives it ("ArticleScreen"), or what
    /// could be read ("<unknown>", "<generic>").
    var typeName: String
    /// For a strong capture of a class instance (also `unowned(unsafe)`/unowned when the instance address is
    /// known): its address. nil otherwise (weak captures: never dereference the side table).
    var object: UnsafeRawPointer?
}
#endif
