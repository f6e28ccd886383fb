#if Tracing
/// Where a closure context keeps what it captured, worked out once per context metadata: the layout is a
/// property of the closure (every instance of a closure expression shares its context metadata); only the
/// words stored at the slots differ per instance.
final class CaptureLayout: Sendable {
    /// What one place in a context holds, and how to read it.
    enum Slot: Sendable {
        /// The context is itself the captured instance (a closure capturing one object and nothing else).
        case contextIsObject(typeName: String)
        /// A strong reference to a class instance.
        case object(offset: Int, typeName: String)
        /// A strong `Optional` reference to a class instance: zero is nil.
        case optionalObject(offset: Int, typeName: String)
        /// `AnyObject` or a class-bound existential (`Optional` too: zero is nil); the name is the dynamic type's.
        case classExistential(offset: Int)
        /// `Any` or another opaque existential: the dynamic type (after the three-word buffer) says what it holds.
        case opaqueExistential(offset: Int)
        /// A `weak` reference: its word is a side-table reference, never read.
        case weak(typeName: String)
        /// An `unowned` or `unowned(unsafe)` reference: its word is the instance's address (zero is nil).
        case unowned(offset: Int, typeName: String)
        /// A captured `var`: its word is a box, itself laid out like a context.
        case box(offset: Int)
        /// A captured escaping closure (the original one, under a reabstraction thunk): its context follows the
        /// function pointer.
        case closure(offset: Int)
        /// Something the reader cannot read with certainty, and why.
        case unknown(String)
    }

    let slots: [Slot]

    init(slots: [Slot]) { self.slots = slots }

    /// Most captures a context may declare before the reader distrusts the descriptor.
    static let maximumCaptures = 64

    /// The layout of contexts whose metadata is at `metadata`: a closure context or box (`HeapLocalVariable`
    /// metadata with a capture descriptor), or a class instance serving as the context itself.
    convenience init(contextMetadata metadata: UnsafeRawPointer) {
        let type = RuntimeType(metadata: metadata)
        switch type.kind {
        case .class:
            self.init(slots: [.contextIsObject(typeName: type.name)])
        case .heapLocalVariable:
            self.init(slots: CaptureLayout.captureSlots(heapLocalVariable: metadata))
        case .heapGenericLocalVariable:
            self.init(slots: [.unknown("<generic>")])
        default:
            self.init(slots: [.unknown("<unknown context>")])
        }
    }

    /// Reads `TargetHeapLocalVariableMetadata` (kind, then a 32-bit offset to the first capture, then a
    /// pointer to the capture descriptor) and the descriptor (`reflection::CaptureDescriptor`: three 32-bit
    /// counts, then one 32-bit relative pointer per capture to its mangled type). Captures are laid out in
    /// the descriptor's order, each at its type's alignment, from the offset — how the compiler lays them out
    /// and how the Swift repository's reflection library reads them.
    private static func captureSlots(heapLocalVariable metadata: UnsafeRawPointer) -> [Slot] {
        let word = MemoryLayout<UnsafeRawPointer>.size
        let firstOffset = Int(metadata.load(fromByteOffset: word, as: UInt32.self))
        guard let descriptor = metadata.load(fromByteOffset: 2 * word, as: UnsafeRawPointer?.self) else {
            // Built with -disable-reflection-metadata (or for the debugger only): no descriptor.
            return [.unknown("<no capture metadata>")]
        }
        let captureCount = Int(descriptor.load(as: UInt32.self))
        let metadataSources = descriptor.load(fromByteOffset: 4, as: UInt32.self)
        let bindings = descriptor.load(fromByteOffset: 8, as: UInt32.self)
        // A context made in generic code stores its generic arguments (metadata and witness tables, one
        // word each: the "necessary bindings") before its captures. Captures whose type names a generic
        // parameter cannot be sized and end the reading as unknown; a closure captured there (the
        // original of a reabstraction thunk, as a transform handed to a generic operator arrives) can.
        _ = metadataSources
        guard bindings <= 16 else { return [.unknown("<generic>")] }
        guard captureCount <= maximumCaptures, firstOffset >= 2 * word, firstOffset <= 4096 else {
            return [.unknown("<unreadable capture metadata>")]
        }
        var slots: [Slot] = []
        var offset = firstOffset + Int(bindings) * word
        for index in 0..<captureCount {
            let record = descriptor + 12 + 4 * index
            let relative = Int(record.load(as: Int32.self))
            guard relative != 0,
                let name = MangledTypeName(at: (record + relative).assumingMemoryBound(to: UInt8.self))
            else {
                slots.append(.unknown("<unreadable capture metadata>"))
                return slots
            }
            guard let capture = Capture(name) else {
                // Its size is unknown, so neither it nor any capture after it can be found.
                slots.append(.unknown(bindings == 0 ? "<unknown>" : "<generic>"))
                return slots
            }
            offset = (offset + capture.alignment - 1) / capture.alignment * capture.alignment
            capture.appendSlots(at: offset, to: &slots)
            offset += capture.size
            guard slots.count <= maximumCaptures else { return Array(slots.prefix(maximumCaptures)) }
        }
        return slots
    }

    /// One capture: its size and alignment in the context, and what it holds.
    private struct Capture {
        enum Kind {
            case value(RuntimeType)
            case weak(RuntimeType)
            case unowned(RuntimeType)
            case box
            case closure
            case nonEscapingClosure
            case contextFreeFunction
        }

        let kind: Kind
        let size: Int
        let alignment: Int

        init?(_ name: MangledTypeName) {
            let word = MemoryLayout<UnsafeRawPointer>.size
            if let function = name.loweredFunction {
                switch function {
                case .escapingClosure: (kind, size, alignment) = (.closure, 2 * word, word)
                case .nonEscapingClosure: (kind, size, alignment) = (.nonEscapingClosure, 2 * word, word)
                case .contextFree: (kind, size, alignment) = (.contextFreeFunction, word, word)
                case .unknown: return nil
                }
            } else if name.hasSuffix("Xx") {
                // A SIL box (`{ var T }`): one reference to a heap box.
                (kind, size, alignment) = (.box, word, word)
            } else if name.hasSuffix("Xw") || name.hasSuffix("Xo") || name.hasSuffix("Xu") {
                guard let referent = name.droppingSuffix(2)?.resolve() else { return nil }
                let type = RuntimeType(referent)
                kind = name.hasSuffix("Xw") ? .weak(type) : .unowned(type)
                (size, alignment) = (type.size, type.alignment)
            } else {
                guard let resolved = name.resolve() else { return nil }
                let type = RuntimeType(resolved)
                (kind, size, alignment) = (.value(type), type.size, type.alignment)
            }
            guard size >= 0, alignment > 0, alignment <= 16 else { return nil }
        }

        func appendSlots(at offset: Int, to slots: inout [Slot]) {
            switch kind {
            case .value(let type):
                CaptureLayout.appendSlots(forValueOf: type, at: offset, depth: 0, to: &slots)
            case .weak(let type):
                slots.append(.weak(typeName: RuntimeType(type.optionalWrapped ?? type.type).name))
            case .unowned(let type):
                let referent = RuntimeType(type.optionalWrapped ?? type.type)
                if referent.kind == .class {
                    slots.append(.unowned(offset: offset, typeName: referent.name))
                } else {
                    slots.append(.unknown("<unowned \(referent.name)>"))
                }
            case .box: slots.append(.box(offset: offset))
            case .closure: slots.append(.closure(offset: offset))
            case .nonEscapingClosure: slots.append(.unknown("<non-escaping closure>"))
            case .contextFreeFunction: break
            }
        }
    }

    /// How deep the reader looks into structs and tuples a closure captured.
    private static let maximumValueDepth = 4

    /// The slots of a value of `type` captured at `offset`: its strong references, looking into structs and
    /// tuples; nothing for plain data and text.
    private static func appendSlots(forValueOf type: RuntimeType, at offset: Int, depth: Int, to slots: inout [Slot]) {
        if type.isPlainData || type.isText { return }
        switch type.kind {
        case .class:
            slots.append(.object(offset: offset, typeName: type.name))
        case .optional:
            guard let wrapped = type.optionalWrapped.map(RuntimeType.init) else {
                slots.append(.unknown("<\(type.name)>"))
                return
            }
            if wrapped.kind == .class {
                slots.append(.optionalObject(offset: offset, typeName: wrapped.name))
            } else if wrapped.kind == .existential, wrapped.existentialRepresentation == .classBound {
                slots.append(.classExistential(offset: offset))
            } else {
                slots.append(.unknown("<\(type.name)>"))
            }
        case .existential:
            switch type.existentialRepresentation {
            case .classBound: slots.append(.classExistential(offset: offset))
            case .opaque: slots.append(.opaqueExistential(offset: offset))
            case .error: slots.append(.unknown("<\(type.name)>"))
            }
        case .function:
            if type.isEscapingSwiftClosure {
                slots.append(.closure(offset: offset))
            } else {
                slots.append(.unknown("<\(type.name)>"))
            }
        case .struct where !type.isCollection, .tuple:
            guard depth < maximumValueDepth, let fields = type.fields, !fields.isEmpty else {
                slots.append(.unknown("<\(type.name)>"))
                return
            }
            for field in fields where field.isStrong {
                appendSlots(
                    forValueOf: RuntimeType(field.type), at: offset + field.offset, depth: depth + 1, to: &slots)
            }
        default:
            // Collections' elements, enums with payloads, opaque builtins: not read.
            slots.append(.unknown("<\(type.name)>"))
        }
    }
}
#endif
