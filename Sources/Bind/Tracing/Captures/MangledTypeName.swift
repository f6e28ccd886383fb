#if Tracing
/// A mangled type name in a binary's reflection metadata (a capture's or a field's type), as the compiler
/// emits it: plain characters, with symbolic references (a control byte, then a 4-byte relative or an
/// 8-byte absolute pointer) to type descriptors. Read in place, because relative references are relative
/// to where they sit.
struct MangledTypeName {
    let start: UnsafePointer<UInt8>
    /// Bytes up to the terminating zero (which symbolic references may contain, so it is found by scanning).
    let length: Int
    /// The plain characters after the last symbolic reference, where ownership and function-type suffixes sit.
    private let plainTail: [UInt8]

    /// The name at `start`; nil when it does not end within `maxLength` bytes or is empty.
    init?(at start: UnsafePointer<UInt8>, maxLength: Int = 1024) {
        var index = 0
        var tail: [UInt8] = []
        while true {
            guard index < maxLength else { return nil }
            let byte = start[index]
            switch byte {
            case 0:
                guard index > 0 else { return nil }
                self.start = start
                self.length = index
                self.plainTail = tail
                return
            case 0x01...0x17:
                index += 5
                tail.removeAll(keepingCapacity: true)
            case 0x18...0x1F:
                index += 1 + MemoryLayout<UnsafeRawPointer>.size
                tail.removeAll(keepingCapacity: true)
            default:
                index += 1
                if tail.count < 64 { tail.append(byte) } else { tail = Array(tail.dropFirst()) + [byte] }
            }
        }
    }

    private init(start: UnsafePointer<UInt8>, length: Int, plainTail: [UInt8]) {
        self.start = start
        self.length = length
        self.plainTail = plainTail
    }

    /// Whether the name ends in `suffix` (plain characters).
    func hasSuffix(_ suffix: String) -> Bool {
        let bytes = Array(suffix.utf8)
        return plainTail.count >= bytes.count && Array(plainTail.suffix(bytes.count)) == bytes
    }

    /// The name without its last `count` plain characters.
    func droppingSuffix(_ count: Int) -> MangledTypeName? {
        guard plainTail.count >= count, length > count else { return nil }
        return MangledTypeName(start: start, length: length - count, plainTail: Array(plainTail.dropLast(count)))
    }

    /// The type the name denotes, resolved by the runtime; nil when it depends on generic parameters, is a
    /// lowered (SIL) type, or cannot be found.
    func resolve() -> Any.Type? {
        _getTypeByMangledNameInContext(start, UInt(length), genericContext: nil, genericArguments: nil)
    }

    /// What a lowered function type (`…I<attributes>_`, as closure captures record them) stores.
    enum FunctionValue {
        /// A Swift closure that may escape: function pointer, then a context that is a heap object or null.
        case escapingClosure
        /// A Swift closure that may not escape: its context may live on a stack.
        case nonEscapingClosure
        /// A thin or C function: one pointer, no context.
        case contextFree
        /// A representation whose layout this reader does not know (`@isolated(any)`, blocks, …).
        case unknown
    }

    /// For a lowered function type, what it stores; nil for any other type.
    var loweredFunction: FunctionValue? {
        // impl-function-type ::= type* 'I' FUNC-ATTRIBUTES '_' (docs/ABI/Mangling.rst): the attributes are
        // plain letters after the last 'I'; their order is fixed.
        guard plainTail.last == UInt8(ascii: "_"), let marker = plainTail.lastIndex(of: UInt8(ascii: "I")) else {
            return nil
        }
        var attributes = plainTail[(marker + 1)...].dropLast()[...]
        // PATTERN-SUBS 's', INVOCATION-SUBS 'I' (already the marker), PSEUDO-GENERIC 'P'.
        while let first = attributes.first, first == UInt8(ascii: "s") || first == UInt8(ascii: "P") {
            attributes = attributes.dropFirst()
        }
        var escaping = false
        if attributes.first == UInt8(ascii: "e") {
            escaping = true
            attributes = attributes.dropFirst()
        }
        guard let convention = attributes.first else { return nil }
        switch convention {
        case UInt8(ascii: "g"), UInt8(ascii: "x"), UInt8(ascii: "y"):
            let representation = attributes.dropFirst().first
            if let representation, "BCMOKW".utf8.contains(representation) { return .unknown }
            return escaping ? .escapingClosure : .nonEscapingClosure
        case UInt8(ascii: "t"):
            return .contextFree
        default:
            // 'A' (@isolated(any)) and differentiability carry more than two words.
            return .unknown
        }
    }
}
#endif
