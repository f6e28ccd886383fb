#if Tracing
/// Finds the strong stored-property paths from an object to the objects a caller is looking for (an owner
/// to its Outputs): which property of a screen keeps a subscription's Output alive.
///
/// Reads stored properties through the runtime's field records, so it never runs the program's code: no
/// computed properties, no lazy initialisation (a `lazy var`'s storage is read as it is), no `description`
/// or `customMirror`. `weak`, `unowned` and `unowned(unsafe)` properties are never followed. It reads memory
/// without synchronisation, so it keeps to what another thread cannot be changing (`SharedState`): an object
/// shared across threads is read through its `let` properties only.
enum RetainWalk {
    /// Strong stored-property paths from `object` to objects `isTarget` accepts (it returns an id, e.g. an
    /// Output's trace id, or nil), breadth first, bounded by `maxDepth` hops and `maxObjects` objects
    /// visited. Follows stored properties of class instances and of structs/enums/tuples/Optionals/Arrays/
    /// Dictionaries inside them, and what stored closures capture; never follows `weak` or `unowned` stored
    /// properties; never calls user code. Each path is like ".viewModel.isBookmarked" (property names joined;
    /// array elements as "[3]", dictionary values as `["key"]`, a stored closure's captures as "{}").
    ///
    /// A target is reported once, at the first (shortest) path that reaches it, and not walked into.
    static func paths(
        from object: AnyObject, maxDepth: Int = 4, maxObjects: Int = 64, isTarget: (AnyObject) -> UInt64?
    ) -> [(path: String, target: UInt64)] {
        walk(from: object, maxDepth: maxDepth, maxObjects: maxObjects, isTarget: isTarget).paths
    }

    /// ``paths(from:maxDepth:maxObjects:isTarget:)``, with the objects whose `var`s were left unread
    /// because they are shared across threads (`SharedState`) and could lead to a target: their type
    /// names, each once. A path may run through them unseen, so "no path" is not a fact about them.
    /// `isTargetType` tells a class's instances apart without one: `true`, they could be targets (by
    /// default, any class could); `false`, they are stops, neither targets nor walked into (as
    /// `isTarget` treats them); `nil`, what they hold decides. A `var` whose type can neither be a
    /// target nor hold one (`Locked<String>`) is left unread without a word.
    static func walk(
        from object: AnyObject, maxDepth: Int = 4, maxObjects: Int = 64,
        isTargetType: (AnyClass) -> Bool? = { _ in true }, isTarget: (AnyObject) -> UInt64?
    ) -> (paths: [RetainPath], unread: [String]) {
        withExtendedLifetime(object) {
            withoutActuallyEscaping(isTarget) { isTarget in
                withoutActuallyEscaping(isTargetType) { isTargetType in
                    var walk = Walk(isTarget: isTarget, types: TypeReach(isTargetType: isTargetType))
                    let root = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
                    let paths = walk.run(from: root, maxDepth: maxDepth, maxObjects: maxObjects)
                    return (paths, walk.unread)
                }
            }
        }
    }

    /// Whether `type` is, or derives from, a Swift class of the system's libraries (Foundation's
    /// `Operation` and `NSObject` on Linux, Dispatch's): their stored fields are not read.
    static func inheritsFromSystemClass(_ type: Any.Type) -> Bool {
        guard var current = type as? AnyClass else { return true }
        for _ in 0..<64 {
            let name = _typeName(current, qualified: true)
            for prefix in systemModules where name.hasPrefix(prefix) { return true }
            guard let superclass = _getSuperclass(current) else { return false }
            current = superclass
        }
        return true
    }

    /// Modules whose classes are implemented in Swift without field records the walk can trust
    /// (swift-corelibs-foundation's, Dispatch's). Objective-C classes (`__C.`) contribute no Swift
    /// fields, so a Swift subclass of one (a view controller) is still read.
    static let systemModules = [
        "Foundation.", "FoundationEssentials.", "FoundationInternationalization.", "CoreFoundation.", "Dispatch.",
        "Swift._",
    ]

    /// What the walk may read while other threads run. It reads without synchronisation, so it relies on Swift's
    /// isolation: an ordinary class instance is changed only by the one thread (or actor) that owns it, which
    /// is the thread that binds. An instance that shows it is shared across threads is not: an actor's state,
    /// or a class with a lock, a mutex, an atomic or a dispatch queue among its stored properties (its `var`s
    /// change under that lock, on other threads). Such an instance, and everything reached from it, is read
    /// through its `let` properties alone, which cannot change once it is made; a synchronisation value itself
    /// is never read into. (Reading a `var` another thread is replacing could follow a freed pointer.)
    enum SharedState {
        /// An actor, or a class (with its superclasses) that stores a synchronisation value, directly or
        /// in a struct or tuple it stores (`var state: State`, whose `lock` guards the rest).
        static func isShared(_ type: RuntimeType) -> Bool {
            if type.type is any Actor.Type { return true }
            return storesSynchronisation(type, depth: 0)
        }

        private static func storesSynchronisation(_ type: RuntimeType, depth: Int) -> Bool {
            (type.fields ?? []).contains { field in
                if namesSynchronisation(field.type) { return true }
                let value = RuntimeType(field.type)
                guard depth < 2, value.kind == .struct || value.kind == .tuple, !value.isCollection else {
                    return false
                }
                return storesSynchronisation(value, depth: depth + 1)
            }
        }

        /// Whether a type's name (with its generic arguments, so `Optional<NSLock>` and
        /// `UnsafeMutablePointer<os_unfair_lock>` count) says it synchronises: a word of it is one of
        /// `synchronisationWords`, or it is a queue work is sent to. Names, because the runtime has no
        /// conformance to ask (`Sendable` is a marker) and locks are as often the program's own wrappers
        /// (`Locked<T>`, `UnfairLock`, `Protected<T>`) as the system's. A false positive reads less of an
        /// object; a false negative could read memory another thread is freeing.
        static func namesSynchronisation(_ type: Any.Type) -> Bool {
            let name = _typeName(type, qualified: true)
            for queue in queueTypes where name.contains(queue) { return true }
            return words(of: name).contains { synchronisationWords.contains($0) }
        }

        static let synchronisationWords: Set<String> = [
            "lock", "locked", "locking", "locks", "mutex", "atomic", "atomics", "spinlock", "semaphore", "protected",
            "synchronized", "synchronised",
        ]
        static let queueTypes = ["Dispatch.DispatchQueue", "Foundation.OperationQueue", "Foundation.NSCondition"]

        /// The lower-cased words of an identifier list: split at anything not a letter or digit and at case
        /// changes (`NSLock` → ns, lock; `os_unfair_lock_s` → os, unfair, lock, s; `ManagedAtomic` → managed,
        /// atomic).
        static func words(of name: String) -> [String] {
            var words: [String] = []
            var current = ""
            let characters = Array(name)
            for (index, character) in characters.enumerated() {
                guard character.isLetter || character.isNumber else {
                    if !current.isEmpty { words.append(current.lowercased()) }
                    current = ""
                    continue
                }
                if let last = current.last, character.isUppercase {
                    let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                    if !last.isUppercase || nextIsLower {
                        words.append(current.lowercased())
                        current = ""
                    }
                }
                current.append(character)
            }
            if !current.isEmpty { words.append(current.lowercased()) }
            return words
        }
    }

    /// Whether a value of a type could be, or hold, a target, told from the type alone (its declared
    /// fields and elements, never memory): what the walk leaves unread is reported only when it could
    /// matter. Whatever the type does not tell (an enum's payload, an existential, a closure, a type
    /// without field records, a type nested deeper than it looks) could.
    struct TypeReach {
        let isTargetType: (AnyClass) -> Bool?
        var known: [ObjectIdentifier: Bool] = [:]

        mutating func mayLeadToTarget(_ type: Any.Type, depth: Int = 0) -> Bool {
            let key = ObjectIdentifier(type)
            if let verdict = known[key] { return verdict }
            guard depth < 4 else { return true }
            known[key] = true  // A type that contains itself is answered "could" while it is worked out.
            let verdict = workOut(type, depth: depth)
            known[key] = verdict
            return verdict
        }

        private mutating func workOut(_ type: Any.Type, depth: Int) -> Bool {
            let runtime = RuntimeType(type)
            if runtime.isPlainData || runtime.isText { return false }
            if let wrapped = runtime.optionalWrapped { return mayLeadToTarget(wrapped, depth: depth + 1) }
            switch runtime.kind {
            case .class:
                // The system's classes (a lock, a queue) are never targets, and never walked into.
                guard let instanceType = type as? AnyClass else { return true }
                if RetainWalk.inheritsFromSystemClass(type) { return false }
                if let verdict = isTargetType(instanceType) { return verdict }
                return anyField(of: runtime, depth: depth)
            case .struct where runtime.isCollection:
                guard let collection = type as? any WalkableCollection.Type else { return true }
                return collection.elementTypes.contains { mayLeadToTarget($0, depth: depth + 1) }
            case .struct, .tuple:
                return anyField(of: runtime, depth: depth)
            default:
                return true
            }
        }

        /// Whether a strong stored field could lead to a target; a type with no field records
        /// (not plain data, yet nothing declared) could.
        private mutating func anyField(of type: RuntimeType, depth: Int) -> Bool {
            guard let fields = type.fields, !fields.isEmpty else { return true }
            return fields.contains { $0.isStrong && mayLeadToTarget($0.type, depth: depth + 1) }
        }
    }

    /// Elements read per collection, so one huge array cannot make the walk unbounded.
    static let maximumElements = 1024

    typealias RetainPath = (path: String, target: UInt64)

    private struct Walk {
        let isTarget: (AnyObject) -> UInt64?
        var types: TypeReach
        var seen: Set<UnsafeRawPointer> = []
        var found: [RetainPath] = []
        /// Shared objects with a `var` left unread that could hold a reference, by type name.
        var unread: [String] = []
        /// Objects to expand next: address, path from the root, hops from the root, and whether it was
        /// reached through an object shared across threads (then it is read through its `let`s only too).
        var queue: [(object: UnsafeRawPointer, path: String, hops: Int, shared: Bool)] = []

        mutating func run(from root: UnsafeRawPointer, maxDepth: Int, maxObjects: Int) -> [RetainPath] {
            seen.insert(root)
            queue.append((root, "", 0, false))
            var next = 0
            var expanded = 0
            while next < queue.count, expanded < maxObjects {
                let (object, path, hops, reachedShared) = queue[next]
                next += 1
                guard hops < maxDepth else { continue }
                expanded += 1
                let metadata = object.load(as: UnsafeRawPointer.self)
                let type = RuntimeType(metadata: metadata)
                // The system's classes (Foundation's `Operation`, `NSObject` and what derives from them)
                // keep fields whose records the runtime does not describe as Swift's do: not walked.
                guard type.kind == .class, !RetainWalk.inheritsFromSystemClass(type.type) else { continue }
                let shared = reachedShared || CaptureLayoutCache.shared.isShared(classMetadata: metadata)
                var reached: [(object: UnsafeRawPointer, path: String)] = []
                var values = ValueReader { reached.append(($0, $1)) }
                values.readFields(of: type, at: object, path: path, immutableOnly: shared)
                if values.unreadTypes.contains(where: { types.mayLeadToTarget($0) }), !unread.contains(type.name) {
                    unread.append(type.name)
                }
                for (child, childPath) in reached where seen.insert(child).inserted {
                    let instance = Unmanaged<AnyObject>.fromOpaque(child).takeUnretainedValue()
                    if let target = isTarget(instance) {
                        found.append((childPath, target))
                    } else {
                        queue.append((child, childPath, hops + 1, shared))
                    }
                }
            }
            return found
        }
    }

    /// Reads the strong references a value holds, reporting each object it reaches with its path.
    private struct ValueReader {
        let reach: (UnsafeRawPointer, String) -> Void
        /// Values read so far within one object, so a deep value graph stays bounded.
        var budget = 4096
        /// The types of the fields left unread (`SharedState`).
        var unreadTypes: [Any.Type] = []

        init(reach: @escaping (UnsafeRawPointer, String) -> Void) { self.reach = reach }

        /// How deep the reader looks into values nested in one object.
        static let maximumDepth = 8

        /// `immutableOnly`: read the `let` properties alone (an object shared across threads). A lock, mutex,
        /// atomic or queue is never read into: its insides change under other threads whatever the property.
        mutating func readFields(
            of type: RuntimeType, at address: UnsafeRawPointer, path: String, depth: Int = 0,
            immutableOnly: Bool = false
        ) {
            guard depth < ValueReader.maximumDepth, let fields = type.fields else { return }
            for field in fields where field.isStrong {
                let fieldType = RuntimeType(field.type)
                if immutableOnly && field.isVar
                    || CaptureLayoutCache.shared.isSynchronisation(typeMetadata: fieldType.metadata)
                {
                    unreadTypes.append(field.type)
                    continue
                }
                read(
                    fieldType, at: address + field.offset, path: path + displayName(field.name),
                    depth: depth + 1)
            }
        }

        mutating func read(_ type: RuntimeType, at address: UnsafeRawPointer, path: String, depth: Int) {
            guard budget > 0, depth < ValueReader.maximumDepth else { return }
            budget -= 1
            if type.isPlainData || type.isText { return }
            switch type.kind {
            case .class:
                reach(address.load(as: UnsafeRawPointer.self), path)
            case .optional:
                guard let wrapped = type.optionalWrapped.map(RuntimeType.init) else { return }
                if wrapped.kind == .class
                    || (wrapped.kind == .existential && wrapped.existentialRepresentation == .classBound)
                {
                    if let object = address.load(as: UnsafeRawPointer?.self) { reach(object, path) }
                } else {
                    readPayload(of: type, at: address, path: path, depth: depth)
                }
            case .existential:
                readExistential(type, at: address, path: path, depth: depth)
            case .function:
                guard type.isEscapingSwiftClosure,
                    let context = address.load(
                        fromByteOffset: MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer?.self)
                else { return }
                var captures: [CapturedReference] = []
                ClosureCaptures.appendReferences(inContext: context, depth: 0, to: &captures)
                for capture in captures where capture.strength == .strong {
                    if let object = capture.object { reach(object, path + "{}") }
                }
            case .struct where type.isCollection:
                readElements(of: type, at: address, path: path, depth: depth)
            case .struct, .tuple:
                readFields(of: type, at: address, path: path, depth: depth)
            case .enum:
                readPayload(of: type, at: address, path: path, depth: depth)
            default:
                return
            }
        }

        /// `AnyObject`/class-bound: the reference comes first. `Any`/`any P`: a value inline in the three-word
        /// buffer, or in a box the buffer points to; the dynamic type follows the buffer
        /// (`OpaqueExistentialContainer`, `ExistentialTypeMetadata::projectValue`).
        mutating func readExistential(_ type: RuntimeType, at address: UnsafeRawPointer, path: String, depth: Int) {
            let word = MemoryLayout<UnsafeRawPointer>.size
            switch type.existentialRepresentation {
            case .classBound:
                if let object = address.load(as: UnsafeRawPointer?.self) { reach(object, path) }
            case .opaque:
                guard let metadata = address.load(fromByteOffset: 3 * word, as: UnsafeRawPointer?.self) else { return }
                let dynamic = RuntimeType(metadata: metadata)
                if dynamic.isInlineInExistential {
                    read(dynamic, at: address, path: path, depth: depth + 1)
                } else {
                    let box = address.load(as: UnsafeRawPointer.self)
                    let mask = dynamic.alignment - 1
                    read(dynamic, at: box + ((2 * word + mask) & ~mask), path: path, depth: depth + 1)
                }
            case .error:
                return
            }
        }

        /// An enum's payload, through `Mirror` on a copy — only for types whose mirror is the runtime's own (a
        /// `CustomReflectable` enum would run its `customMirror`).
        mutating func readPayload(of type: RuntimeType, at address: UnsafeRawPointer, path: String, depth: Int) {
            guard !(type.type is any CustomReflectable.Type) || type.optionalWrapped != nil else { return }
            let value = copyValue(of: type.type, at: address)
            let mirror = Mirror(reflecting: value)
            for child in mirror.children {
                let label = type.optionalWrapped == nil ? child.label.map { "." + $0 } ?? "" : ""
                readValue(child.value, path: path + label, depth: depth + 1)
            }
        }

        /// A standard-library collection's elements, through its iterator (no user code: the element types'
        /// `==` and `hash(into:)` are not called by iterating).
        mutating func readElements(of type: RuntimeType, at address: UnsafeRawPointer, path: String, depth: Int) {
            guard let collection = type.type as? any WalkableCollection.Type else { return }
            var elements: [(label: String, value: Any)] = []
            collection.forEachElement(at: address, limit: RetainWalk.maximumElements) { elements.append(($0, $1)) }
            for (label, value) in elements {
                readValue(value, path: path + label, depth: depth + 1)
            }
        }

        /// A value copied into an `Any`: opened to its dynamic type and read in place.
        mutating func readValue(_ value: Any, path: String, depth: Int) {
            var copy = value
            let dynamic = RuntimeType(Swift.type(of: value))
            if dynamic.kind == .class {
                reach(Unmanaged<AnyObject>.passUnretained(value as AnyObject).toOpaque(), path)
                return
            }
            withUnsafeBytes(of: &copy) { container in
                // `copy` is an `Any`: an opaque existential container.
                read(RuntimeType(Any.self), at: container.baseAddress!, path: path, depth: depth)
            }
        }

        /// A field as it reads in a path: ".name" (a lazy var's storage by the var's name; tuple elements
        /// come as ".0" or their label).
        func displayName(_ field: String) -> String {
            let lazyPrefix = "$__lazy_storage_$_"
            if field.hasPrefix(lazyPrefix) { return "." + field.dropFirst(lazyPrefix.count) }
            return field.hasPrefix(".") ? field : "." + field
        }
    }
}

/// A copy of the value of `type` at `address` (retaining what it references; runs no code of the type).
private func copyValue(of type: Any.Type, at address: UnsafeRawPointer) -> Any {
    func load<T>(_: T.Type) -> Any { address.assumingMemoryBound(to: T.self).pointee }
    return _openExistential(type, do: load)
}

/// The standard library's collections, read element by element with a path label for each.
private protocol WalkableCollection {
    static func forEachElement(at address: UnsafeRawPointer, limit: Int, _ body: (String, Any) -> Void)
    /// The types its elements (and a dictionary's keys) are declared with.
    static var elementTypes: [Any.Type] { get }
}

extension Array: WalkableCollection {
    fileprivate static var elementTypes: [Any.Type] { [Element.self] }

    fileprivate static func forEachElement(at address: UnsafeRawPointer, limit: Int, _ body: (String, Any) -> Void) {
        for (index, element) in address.assumingMemoryBound(to: Self.self).pointee.prefix(limit).enumerated() {
            body("[\(index)]", element)
        }
    }
}

extension ContiguousArray: WalkableCollection {
    fileprivate static var elementTypes: [Any.Type] { [Element.self] }

    fileprivate static func forEachElement(at address: UnsafeRawPointer, limit: Int, _ body: (String, Any) -> Void) {
        for (index, element) in address.assumingMemoryBound(to: Self.self).pointee.prefix(limit).enumerated() {
            body("[\(index)]", element)
        }
    }
}

extension Set: WalkableCollection {
    fileprivate static var elementTypes: [Any.Type] { [Element.self] }

    fileprivate static func forEachElement(at address: UnsafeRawPointer, limit: Int, _ body: (String, Any) -> Void) {
        for (index, element) in address.assumingMemoryBound(to: Self.self).pointee.prefix(limit).enumerated() {
            body("[\(index)]", element)
        }
    }
}

extension Dictionary: WalkableCollection {
    fileprivate static var elementTypes: [Any.Type] { [Key.self, Value.self] }

    fileprivate static func forEachElement(at address: UnsafeRawPointer, limit: Int, _ body: (String, Any) -> Void) {
        for (index, (key, value)) in address.assumingMemoryBound(to: Self.self).pointee.prefix(limit).enumerated() {
            body("[\(keyLabel(key, index: index))]", value)
            body("[\(keyLabel(key, index: index))].key", key)
        }
    }

    /// A key as it reads in a path: strings quoted, integers as they are; other keys by position (describing
    /// them could run the program's code).
    private static func keyLabel(_ key: Key, index: Int) -> String {
        if let text = key as? String { return "\"\(text)\"" }
        if let number = key as? Int { return String(number) }
        return "#\(index)"
    }
}
#endif
