// What a bound closure captures, read when it is bound (docs/captures.md): the facts the analysis
// judges retain cycles and handed-over work by. The Tracing build's `CaptureProbe`; the plain build's,
// with empty bodies, is in UntracedProbes.swift.
import BindTraceFormat

#if Tracing
import CBindTrace

/// One reference a bound closure holds, with the Outputs it keeps alive (their trace infos, which
/// outlive the Outputs): what the recorder writes as a `captured` event.
@usableFromInline
struct CaptureFact {
    var strength: CaptureField.Strength
    var typeName: String
    var identity: UInt
    var holds: [(path: String, output: OutputTraceInfo)]
}

@usableFromInline
struct CaptureProbe {
    /// Read only while a recording runs; `nil` for a Binder (it holds its target weakly) or when
    /// nothing records.
    @usableFromInline let facts: [CaptureFact]?

    @inlinable static var none: CaptureProbe { CaptureProbe(facts: nil) }

    @usableFromInline init(facts: [CaptureFact]?) { self.facts = facts }

    @inlinable
    init<Argument, Result>(_ closure: @escaping (Argument) -> Result) {
        self = bind_trace_is_recording() ? CaptureProbe.read(closure) : .none
    }

    @inlinable
    init<First, Second, Result>(_ closure: @escaping (First, Second) -> Result) {
        self = bind_trace_is_recording() ? CaptureProbe.read(closure) : .none
    }

    /// A bound closure's shape, read without a reabstraction thunk (see `ClosureCaptures`).
    @inlinable
    init<Argument>(_ closure: @escaping (Argument) -> Void) {
        self = bind_trace_is_recording() ? CaptureProbe.read(closure) : .none
    }

    @usableFromInline
    static func read<Argument>(_ closure: @escaping (Argument) -> Void) -> CaptureProbe {
        CaptureProbe(facts: facts(of: ClosureCaptures.references(of: closure)))
    }

    @usableFromInline
    static func read<Argument, Result>(_ closure: @escaping (Argument) -> Result) -> CaptureProbe {
        CaptureProbe(facts: facts(of: ClosureCaptures.references(of: closure)))
    }

    @usableFromInline
    static func read<First, Second, Result>(_ closure: @escaping (First, Second) -> Result) -> CaptureProbe {
        CaptureProbe(facts: facts(of: ClosureCaptures.references(of: closure)))
    }

    /// How many objects and hops the search for held Outputs visits from each strong capture.
    static let walkDepth = 4
    static let walkObjects = 64
    /// What the walk's target test returns for Bind's own objects: not walked into, not kept.
    static let notAnOutput = UInt64.max

    /// Each reference, with the Outputs a strongly held instance keeps alive. Runs before the bound
    /// Output's lock is taken: the Outputs found are announced under their own locks.
    ///
    /// An object the walk read only in part (shared across threads, `RetainWalk.SharedState`) adds an
    /// unknown entry after its reference, naming it: a cycle through its unread `var`s is then not
    /// ruled out, and the analysis judges the closure as one it could not read.
    static func facts(of references: [CapturedReference]) -> [CaptureFact] {
        var facts: [CaptureFact] = []
        for reference in references.prefix(CaptureField.maximumCount) {
            var fact = CaptureFact(
                strength: reference.strength.field, typeName: reference.typeName,
                identity: reference.object.map { UInt(bitPattern: $0) } ?? 0, holds: [])
            guard reference.strength == .strong, let address = reference.object else {
                facts.append(fact)
                continue
            }
            // Alive: the closure holds it strongly, and the closure is alive while it is bound.
            let object = Unmanaged<AnyObject>.fromOpaque(address).takeUnretainedValue()
            if let output = object as? TracedOutputObject {
                fact.holds = [("", output.announcedTraceInfo())]
                facts.append(fact)
                continue
            }
            var found: [OutputTraceInfo] = []
            let walk = RetainWalk.walk(
                from: object, maxDepth: walkDepth, maxObjects: walkObjects,
                isTargetType: { type in
                    if type is TracedOutputObject.Type { return true }
                    return type is BindInternalObject.Type ? false : nil
                }
            ) { candidate in
                // Bind's own bookkeeping (a bag, a handle, a subscriber list) holds closures, never an
                // Output: a stop that is not a find.
                if candidate is BindInternalObject { return notAnOutput }
                guard let output = candidate as? TracedOutputObject else { return nil }
                found.append(output.announcedTraceInfo())
                return UInt64(found.count - 1)
            }
            fact.holds = walk.paths.lazy.filter { $0.target != notAnOutput }.prefix(CaptureField.maximumCount).map {
                ($0.path, found[Int($0.target)])
            }
            facts.append(fact)
            if !walk.unread.isEmpty {
                facts.append(
                    CaptureFact(
                        strength: .unknown, typeName: "the vars of \(unreadList(walk.unread)), shared across threads",
                        identity: 0, holds: []))
            }
        }
        return Array(facts.prefix(CaptureField.maximumCount))
    }

    /// "LockedStore", "LockedStore and Cache", "LockedStore, Cache and 2 more".
    static func unreadList(_ names: [String]) -> String {
        switch names.count {
        case 1: names[0]
        case 2: "\(names[0]) and \(names[1])"
        default: "\(names[0]), \(names[1]) and \(names.count - 2) more"
        }
    }
}

extension CapturedReference.Strength {
    var field: CaptureField.Strength {
        switch self {
        case .strong: .strong
        case .weak: .weak
        case .unowned: .unowned
        case .unknown: .unknown
        }
    }
}

/// An Output seen from code that does not know its value type: a captured instance, or one found
/// in a captured instance's stored properties.
protocol TracedOutputObject: AnyObject {
    /// Its trace info, announced (with its subscribers) to the sinks that have not seen it. Takes
    /// its lock: never called with another Output's lock held.
    func announcedTraceInfo() -> OutputTraceInfo
}

/// Bind's own objects a captured owner may hold: none of them holds an Output (a subscriber list
/// holds closures; a handle and a bag hold subscriber lists).
protocol BindInternalObject: AnyObject {}
extension Subscription: BindInternalObject {}
extension SubscriptionContainer: BindInternalObject {}
extension SubscriberList: BindInternalObject {}

extension Output: TracedOutputObject {
    func announcedTraceInfo() -> OutputTraceInfo {
        subscribers.lock.withLock { subscribers.probe.announced(&subscribers.entries) }
    }
}
#endif
