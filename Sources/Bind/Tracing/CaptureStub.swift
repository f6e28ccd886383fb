// TEMPORARY stand-in for the capture reader (replaced by Sources/Bind/Tracing/Captures/).
#if Tracing
struct CapturedReference: Equatable {
    enum Strength: UInt8 { case strong = 0, weak = 1, unowned = 2, unknown = 3 }
    var strength: Strength
    var typeName: String
    var object: UnsafeRawPointer?
}

enum ClosureCaptures {
    static func references<Argument, Result>(of closure: (Argument) -> Result) -> [CapturedReference] {
        [CapturedReference(strength: .unknown, typeName: "<stub>", object: nil)]
    }
    static func references<A, B, Result>(of closure: (A, B) -> Result) -> [CapturedReference] {
        [CapturedReference(strength: .unknown, typeName: "<stub>", object: nil)]
    }
}

enum RetainWalk {
    static func paths(
        from object: AnyObject, maxDepth: Int = 4, maxObjects: Int = 64, isTarget: (AnyObject) -> UInt64?
    ) -> [(path: String, target: UInt64)] { [] }
}
#endif
