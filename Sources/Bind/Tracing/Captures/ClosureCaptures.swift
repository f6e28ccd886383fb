#if Tracing
/// Reads what a closure's context holds, in process: which objects a bound closure keeps alive, so the trace
/// can record the fact instead of the leak analysis guessing it (docs/captures.md).
///
/// A closure value is a function pointer and a context: null, a heap object whose metadata describes the
/// captures (`HeapLocalVariable` metadata with a capture descriptor), or — for a closure capturing one
/// object and nothing else — that object. The reader follows a pointer only after the runtime's metadata
/// says what it is; whatever it cannot read with certainty becomes one `.unknown` entry.
///
/// The closure parameters are `@escaping` on purpose: a non-escaping argument that needs reabstraction (any
/// closure whose types are more concrete than the parameter's) arrives wrapped in a thunk context allocated
/// on the caller's stack, whose header carries no metadata, so nothing in it could be read safely. An
/// escaping argument's thunk is a heap object like any other context.
enum ClosureCaptures {
    /// The references `closure`'s context holds, following reabstraction-thunk contexts to the original
    /// closure. [] for a closure with no context (captures nothing, or a plain function). Never crashes:
    /// anything it cannot read with certainty is one `.unknown` entry with a reason in typeName.
    ///
    /// - Complexity: one cache lookup per context on the way (the closure's, each thunk's, each box's); the
    ///   first call for a closure expression works out its layout from metadata.
    static func references<Argument, Result>(of closure: @escaping (Argument) -> Result) -> [CapturedReference] {
        references(inContextOf: OneArgument(closure: closure))
    }

    /// The references a `(Argument) -> Void` closure holds: the shape `Output<Value>.bind(_:)` receives,
    /// passed on without a reabstraction thunk (the generic overload's `Result` would need one).
    static func references<Argument>(of closure: @escaping (Argument) -> Void) -> [CapturedReference] {
        references(inContextOf: OneArgumentVoid(closure: closure))
    }

    /// Same for a two-argument closure (combine's transforms).
    static func references<A, B, Result>(of closure: @escaping (A, B) -> Result) -> [CapturedReference] {
        references(inContextOf: TwoArguments(closure: closure))
    }

    /// Same for a two-argument closure returning nothing.
    static func references<A, B>(of closure: @escaping (A, B) -> Void) -> [CapturedReference] {
        references(inContextOf: TwoArgumentsVoid(closure: closure))
    }

    // Each closure travels in a struct whose field has the parameter's own function type: passing the closure
    // itself to a generic parameter (`unsafeBitCast`'s, `withExtendedLifetime`'s) would wrap it in yet another
    // reabstraction thunk, allocated at every call. A struct is passed as it is.
    private struct OneArgument<Argument, Result> { let closure: (Argument) -> Result }
    private struct OneArgumentVoid<Argument> { let closure: (Argument) -> Void }
    private struct TwoArguments<A, B, Result> { let closure: (A, B) -> Result }
    private struct TwoArgumentsVoid<A, B> { let closure: (A, B) -> Void }

    /// How many contexts deep the reader follows thunks, nested closures and boxes.
    static let maximumDepth = 8

    // Hot path: runs at every traced bind.
    @inline(__always)
    private static func references<Stored>(inContextOf stored: Stored) -> [CapturedReference] {
        typealias Words = (function: UnsafeRawPointer, context: UnsafeRawPointer?)
        // `Stored` is one of the structs above: a thick function, two words (function, context).
        guard MemoryLayout<Stored>.size == MemoryLayout<Words>.size else {
            return [CapturedReference(strength: .unknown, typeName: "<unknown>", object: nil)]
        }
        // The caller holds the closure (and so its context) for the whole call.
        guard let context = unsafeBitCast(stored, to: Words.self).context else { return [] }
        var references: [CapturedReference] = []
        appendReferences(inContext: context, depth: 0, to: &references)
        return references
    }

    /// Appends what the heap object `context` (a closure context or a box) holds.
    static func appendReferences(
        inContext context: UnsafeRawPointer, depth: Int, to references: inout [CapturedReference]
    ) {
        guard depth < maximumDepth else {
            references.append(CapturedReference(strength: .unknown, typeName: "<too deep>", object: nil))
            return
        }
        let slots = CaptureLayoutCache.shared.slots(forContextMetadata: context.load(as: UnsafeRawPointer.self))
        references.reserveCapacity(references.count + slots.count)
        for slot in slots {
            switch slot {
            case .contextIsObject(let typeName):
                references.append(CapturedReference(strength: .strong, typeName: typeName, object: context))
            case .object(let offset, let typeName):
                let object = context.load(fromByteOffset: offset, as: UnsafeRawPointer.self)
                references.append(CapturedReference(strength: .strong, typeName: typeName, object: object))
            case .optionalObject(let offset, let typeName):
                if let object = context.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) {
                    references.append(CapturedReference(strength: .strong, typeName: typeName, object: object))
                }
            case .classExistential(let offset):
                if let object = context.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) {
                    let typeName = CaptureLayoutCache.shared.className(ofObject: object)
                    references.append(CapturedReference(strength: .strong, typeName: typeName, object: object))
                }
            case .opaqueExistential(let offset):
                appendExistentialContent(at: context + offset, to: &references)
            case .weak(let typeName):
                references.append(CapturedReference(strength: .weak, typeName: typeName, object: nil))
            case .unowned(let offset, let typeName):
                if let object = context.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) {
                    references.append(CapturedReference(strength: .unowned, typeName: typeName, object: object))
                }
            case .box(let offset):
                let box = context.load(fromByteOffset: offset, as: UnsafeRawPointer.self)
                appendReferences(inContext: box, depth: depth + 1, to: &references)
            case .closure(let offset):
                let word = MemoryLayout<UnsafeRawPointer>.size
                if let inner = context.load(fromByteOffset: offset + word, as: UnsafeRawPointer?.self) {
                    appendReferences(inContext: inner, depth: depth + 1, to: &references)
                }
            case .unknown(let reason):
                references.append(CapturedReference(strength: .unknown, typeName: reason, object: nil))
            }
        }
    }

    /// An opaque existential (`Any`, `any P`): the dynamic type sits after the three-word buffer. A class
    /// instance is stored inline, as its reference.
    private static func appendExistentialContent(
        at container: UnsafeRawPointer, to references: inout [CapturedReference]
    ) {
        let word = MemoryLayout<UnsafeRawPointer>.size
        guard let metadata = container.load(fromByteOffset: 3 * word, as: UnsafeRawPointer?.self) else { return }
        let content = CaptureLayoutCache.shared.existentialContent(ofTypeMetadata: metadata)
        switch content {
        case .nothing:
            break
        case .object(let typeName):
            let object = container.load(as: UnsafeRawPointer.self)
            references.append(CapturedReference(strength: .strong, typeName: typeName, object: object))
        case .unknown(let reason):
            references.append(CapturedReference(strength: .unknown, typeName: reason, object: nil))
        }
    }
}
#endif
