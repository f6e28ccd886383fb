#if Tracing
/// A type as the Swift runtime describes it: its metadata kind, layout and stored fields, read from the
/// metadata the compiler emitted (include/swift/ABI/Metadata.h, MetadataKind.def) and through the
/// runtime's own reflection entry points, never by running the type's code.
struct RuntimeType {
    let type: Any.Type

    init(_ type: Any.Type) { self.type = type }

    /// `type` as long as `metadata` is the address point of a type's metadata.
    init(metadata: UnsafeRawPointer) { self.type = unsafeBitCast(metadata, to: Any.Type.self) }

    var metadata: UnsafeRawPointer { unsafeBitCast(type, to: UnsafeRawPointer.self) }

    /// The metadata kind; a class (kind 0, or an isa pointer above 0x7FF where Objective-C interop puts one)
    /// reads as `.class`.
    var kind: Kind { Kind(word: metadata.load(as: UInt.self)) }

    var name: String { _typeName(type, qualified: false) }

    var size: Int { layout(of: type).size }
    var alignment: Int { layout(of: type).alignment }
    /// No references and no resources: copying its bytes is copying the value.
    var isPlainData: Bool { isPOD(type) }

    /// The value witness flags (`TypeLayout.h`): the word after size and stride in the value witness table.
    private var valueWitnessFlags: UInt32 {
        metadata.load(fromByteOffset: -MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
            .load(fromByteOffset: 10 * MemoryLayout<UnsafeRawPointer>.size, as: UInt32.self)
    }

    /// Whether a value of this type sits inline in an existential's three-word buffer (else the buffer holds
    /// a box).
    var isInlineInExistential: Bool { valueWitnessFlags & 0x0002_0000 == 0 }

    /// A struct that keeps no object alive although it is not plain data: text.
    var isText: Bool {
        type == String.self || type == Substring.self || type == Character.self
    }

    /// A standard-library collection (`Array`, `Dictionary`, `Set`, …): its storage is one object whose
    /// elements are not stored fields.
    var isCollection: Bool { (type as? any Collection.Type) != nil && !isText }

    /// For `Optional<Wrapped>`: `Wrapped`.
    var optionalWrapped: Any.Type? { (type as? any OptionalCapture.Type)?.wrappedType }

    enum Kind: Equatable {
        case `class`, `struct`, `enum`, optional, opaque, tuple, function, existential, metatype
        case heapLocalVariable, heapGenericLocalVariable, other(UInt)

        init(word: UInt) {
            switch word {
            case 0, 0x800...: self = .class
            case 0x200: self = .struct
            case 0x201: self = .enum
            case 0x202: self = .optional
            case 0x300: self = .opaque
            case 0x301: self = .tuple
            case 0x302: self = .function
            case 0x303: self = .existential
            case 0x304, 0x306: self = .metatype
            case 0x400: self = .heapLocalVariable
            case 0x500: self = .heapGenericLocalVariable
            default: self = .other(word)
            }
        }
    }

    // MARK: Existentials

    /// How an existential type stores its value (`ExistentialTypeFlags`).
    enum ExistentialRepresentation {
        /// `AnyObject`, `any P` with `P: AnyObject`: the object reference, then witness tables.
        case classBound
        /// `Any`, `any P`: a three-word buffer (inline value or a box), the dynamic type, witness tables.
        case opaque
        /// `any Error`: one reference to an error box.
        case error
    }

    var existentialRepresentation: ExistentialRepresentation {
        let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self)
        if flags & 0x3F00_0000 != 0 { return .error }
        return flags & 0x8000_0000 == 0 ? .classBound : .opaque
    }

    // MARK: Functions

    /// For a function type: whether a value is a Swift closure (function pointer, context) that may escape.
    var isEscapingSwiftClosure: Bool {
        let flags = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
        let convention = (flags >> 16) & 0xFF
        return convention == 0 && flags & 0x0400_0000 != 0 && size == 2 * MemoryLayout<UnsafeRawPointer>.size
    }

    // MARK: Stored fields

    /// One stored property (or tuple element), as the runtime's field records give it.
    struct Field {
        var name: String
        var offset: Int
        var type: Any.Type
        /// False for `weak`, `unowned` and `unowned(unsafe)` properties: they keep nothing alive.
        var isStrong: Bool
        /// A `var` (or a `lazy var`'s storage): it may change after the instance is made.
        var isVar: Bool
    }

    /// The stored properties of a struct, a class (its superclasses' first) or a tuple; nil for other kinds.
    /// Empty when the type's field records are missing (`-disable-reflection-metadata`). Worked out once per
    /// type (`CaptureLayoutCache`): asking the runtime allocates each field's name.
    var fields: [Field]? {
        switch kind {
        case .struct, .class, .tuple: CaptureLayoutCache.shared.fields(of: self)
        default: nil
        }
    }

    /// ``fields``, asked of the runtime.
    var fieldsFromRuntime: [Field] {
        let count = runtimeFieldCount(type)
        guard count >= 0, count <= 4096 else { return [] }
        var fields: [Field] = []
        fields.reserveCapacity(count)
        for index in 0..<count {
            var record = RuntimeFieldRecord()
            let fieldType = runtimeFieldType(type, index, &record)
            let name = record.name.map { String(cString: $0) } ?? ".\(index)"
            if let free = record.freeName { free(record.name) }
            fields.append(
                Field(
                    name: name, offset: runtimeFieldOffset(type, index), type: fieldType, isStrong: record.isStrong,
                    isVar: record.isVar))
        }
        return fields
    }
}

/// Gives `Optional`'s wrapped type without a value.
protocol OptionalCapture {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalCapture {
    static var wrappedType: Any.Type { Wrapped.self }
}

private func layout(of type: Any.Type) -> (size: Int, alignment: Int) {
    func layout<T>(_: T.Type) -> (size: Int, alignment: Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }
    return _openExistential(type, do: layout)
}

private func isPOD(_ type: Any.Type) -> Bool {
    func isPOD<T>(_ type: T.Type) -> Bool { _isPOD(type) }
    return _openExistential(type, do: isPOD)
}

// The runtime's reflection entry points that `Mirror` and the standard library's `_forEachField` use
// (stdlib/public/runtime/ReflectionMirror.cpp). They read field records and offsets without a value and
// without calling the type's code; `isStrong` says whether a field is a weak or unowned reference.

/// `FieldReflectionMetadata` in the runtime.
private struct RuntimeFieldRecord {
    var name: UnsafePointer<CChar>? = nil
    var freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong = false
    var isVar = false
}

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func runtimeFieldCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func runtimeFieldOffset(_ type: Any.Type, _ index: Int) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func runtimeFieldType(
    _ type: Any.Type, _ index: Int, _ record: UnsafeMutablePointer<RuntimeFieldRecord>
) -> Any.Type
#endif
