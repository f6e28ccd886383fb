#if Tracing
/// The capture layouts worked out so far, by context metadata address, and what the dynamic types met
/// through existentials hold. Metadata is never freed, so no key goes stale, and nothing here is freed
/// either: one entry per closure expression (or type) read, in fixed tables.
///
/// Hot path: a hit takes the lock once, hashes the address with one multiplication and copies a slot buffer
/// address out — no `Hasher`, no reference counting, no exclusivity checks (a `Dictionary` in a class
/// property cost all three).
final class CaptureLayoutCache: @unchecked Sendable {
    static let shared = CaptureLayoutCache()

    private let lock = Lock()
    private let layouts = PointerTable<UnsafeBufferPointer<CaptureLayout.Slot>>()
    private let classNames = PointerTable<String>()
    private let existentialContents = PointerTable<ExistentialContent>()
    private let fieldLists = PointerTable<[RuntimeType.Field]>()
    private let synchronisationTypes = PointerTable<Bool>()
    private let sharedClasses = PointerTable<Bool>()

    private init() {}

    /// The layout of contexts with this metadata. Worked out outside the lock (it asks the runtime to resolve
    /// type names); two threads missing at once both work it out, and the first one's stays.
    func slots(forContextMetadata metadata: UnsafeRawPointer) -> UnsafeBufferPointer<CaptureLayout.Slot> {
        lock.lock()
        let known = layouts.value(for: metadata)
        lock.unlock()
        if let known { return known }
        let slots = CaptureLayout(contextMetadata: metadata).slots
        let stored = UnsafeMutableBufferPointer<CaptureLayout.Slot>.allocate(capacity: slots.count)
        _ = stored.initialize(from: slots)
        return lock.withLock { layouts.insert(UnsafeBufferPointer(stored), for: metadata) }
    }

    /// The dynamic type name of a live class instance, by its isa.
    func className(ofObject object: UnsafeRawPointer) -> String {
        let metadata = object.load(as: UnsafeRawPointer.self)
        lock.lock()
        let known = classNames.value(for: metadata)
        lock.unlock()
        if let known { return known }
        let name = RuntimeType(metadata: metadata).name
        return lock.withLock { classNames.insert(name, for: metadata) }
    }

    /// What an opaque existential holding a value of one dynamic type keeps alive.
    enum ExistentialContent {
        case nothing
        case object(typeName: String)
        case unknown(String)
    }

    func existentialContent(ofTypeMetadata metadata: UnsafeRawPointer) -> ExistentialContent {
        lock.lock()
        let known = existentialContents.value(for: metadata)
        lock.unlock()
        if let known { return known }
        let type = RuntimeType(metadata: metadata)
        let content: ExistentialContent
        if type.isPlainData || type.isText {
            content = .nothing
        } else if type.kind == .class {
            content = .object(typeName: type.name)
        } else {
            content = .unknown("<\(type.name)>")
        }
        return lock.withLock { existentialContents.insert(content, for: metadata) }
    }

    /// A struct's, class's or tuple's stored fields (`RuntimeType.fields`).
    func fields(of type: RuntimeType) -> [RuntimeType.Field] {
        let metadata = type.metadata
        lock.lock()
        let known = fieldLists.value(for: metadata)
        lock.unlock()
        if let known { return known }
        let fields = type.fieldsFromRuntime
        return lock.withLock { fieldLists.insert(fields, for: metadata) }
    }

    /// Whether values of this type are a lock, a mutex, an atomic or a queue (`RetainWalk.SharedState`).
    func isSynchronisation(typeMetadata metadata: UnsafeRawPointer) -> Bool {
        lock.lock()
        let known = synchronisationTypes.value(for: metadata)
        lock.unlock()
        if let known { return known }
        let verdict = RetainWalk.SharedState.namesSynchronisation(RuntimeType(metadata: metadata).type)
        return lock.withLock { synchronisationTypes.insert(verdict, for: metadata) }
    }

    /// Whether instances of this class may be changed by other threads (`RetainWalk.SharedState`).
    func isShared(classMetadata metadata: UnsafeRawPointer) -> Bool {
        lock.lock()
        let known = sharedClasses.value(for: metadata)
        lock.unlock()
        if let known { return known }
        let verdict = RetainWalk.SharedState.isShared(RuntimeType(metadata: metadata))
        return lock.withLock { sharedClasses.insert(verdict, for: metadata) }
    }
}

/// A fixed open-addressing table from addresses to values, never shrinking; used under the cache's lock.
/// When half full it stops taking entries (then a miss is worked out again at every call: thousands of
/// closure expressions would have to be read first).
private final class PointerTable<Value> {
    private struct Entry {
        var key: UnsafeRawPointer?
        var value: Value?
    }

    private static var capacity: Int { 4096 }
    private let entries: UnsafeMutablePointer<Entry>
    private let count: UnsafeMutablePointer<Int>

    init() {
        entries = .allocate(capacity: Self.capacity)
        entries.initialize(repeating: Entry(key: nil, value: nil), count: Self.capacity)
        count = .allocate(capacity: 1)
        count.initialize(to: 0)
    }

    // Never deinitialised: the tables live as long as the process (the cache is a static).

    @inline(__always)
    private func home(of key: UnsafeRawPointer) -> Int {
        // Fibonacci hashing: the high bits of address × 2⁶⁴/φ.
        Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: key)) &* 0x9E37_79B9_7F4A_7C15) >> 52)
    }

    @inline(__always)
    func value(for key: UnsafeRawPointer) -> Value? {
        var index = home(of: key)
        while let stored = entries[index].key {
            if stored == key { return entries[index].value }
            index = (index + 1) & (Self.capacity - 1)
        }
        return nil
    }

    /// Stores `value` unless the key is already there (or the table is half full); returns the stored value.
    func insert(_ value: Value, for key: UnsafeRawPointer) -> Value {
        var index = home(of: key)
        while let stored = entries[index].key {
            if stored == key, let existing = entries[index].value { return existing }
            index = (index + 1) & (Self.capacity - 1)
        }
        guard count.pointee < Self.capacity / 2 else { return value }
        entries[index] = Entry(key: key, value: value)
        count.pointee += 1
        return value
    }
}
#endif
