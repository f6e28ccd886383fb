import BindTraceFormat

#if Tracing
/// Gives each distinct string of a stream its id, so a trace stores every file name, type name,
/// label and scope name once. Not thread-safe: used under `TraceRecorder`'s lock.
struct TraceStrings {
    private var files: [UInt: UInt64] = [:]
    /// The ids of recently used files, by address: every traced bind interns its file, and a
    /// dictionary lookup hashes the address each time.
    private var recentFiles = RecentIDs<UInt>(empty: 0)
    private var types: [ObjectIdentifier: UInt64] = [:]
    private var texts: [String: UInt64] = [:]
    /// Call sites (file string id, line) and their ids, which count from 1 apart from strings'.
    private var sites: [SiteKey: UInt64] = [:]
    /// The ids of recently used call sites: an Output updated from two lines in turn writes a site
    /// at every update, and a dictionary lookup hashes the key each time.
    private var recentSites = RecentIDs<SiteKey>(empty: SiteKey(file: 0, line: 0))
    private var nextID: UInt64 = 1
    /// Every string record of the stream, so a sink that joins mid-stream can define them first.
    private(set) var records: [UInt8] = []
    /// Which set of ids this is: it changes at every ``reset()``, so an id cached elsewhere (a
    /// thread's name) is known to be stale.
    private(set) var generation: UInt64 = 1

    /// Forgets every id: a new stream starts at 1 again.
    mutating func reset() {
        let next = generation &+ 1
        self = TraceStrings()
        generation = next
    }

    /// The id of `file`; `define` is called with the record of a new string.
    mutating func id(of file: StaticString, define: (TraceRecord) -> Void) -> UInt64 {
        guard file.hasPointerRepresentation else { return id(of: file.description, define: define) }
        if let id = recentID(of: file) { return id }
        let key = UInt(bitPattern: file.utf8Start)
        let id: UInt64
        if let known = files[key] {
            id = known
        } else {
            id = add(Array(UnsafeBufferPointer(start: file.utf8Start, count: file.utf8CodeUnitCount)), define)
            files[key] = id
        }
        recentFiles.remember(id, for: key, hash: UInt64(key))
        return id
    }

    /// The id of `file` if it was used recently: the traced bind's path, with nothing to define.
    @inline(__always)
    func recentID(of file: StaticString) -> UInt64? {
        guard file.hasPointerRepresentation else { return nil }
        let key = UInt(bitPattern: file.utf8Start)
        return recentFiles.id(of: key, hash: UInt64(key))
    }

    mutating func id(of type: Any.Type, define: (TraceRecord) -> Void) -> UInt64 {
        let key = ObjectIdentifier(type)
        if let id = types[key] { return id }
        let id = add(TraceFormat.truncated(String(describing: type), to: TraceFormat.maximumStringLength), define)
        types[key] = id
        return id
    }

    mutating func id(of text: String, define: (TraceRecord) -> Void) -> UInt64 {
        if let id = texts[text] { return id }
        let id = add(TraceFormat.truncated(text, to: TraceFormat.maximumStringLength), define)
        texts[text] = id
        return id
    }

    /// The id of the call site at `line` of the file whose string id is `file`; `define` is called
    /// with the site's record when it is new (kept with the strings: a sink that joins later gets it).
    mutating func siteID(file: UInt64, line: UInt64, define: (TraceRecord) -> Void) -> UInt64 {
        let key = SiteKey(file: file, line: line)
        let hash = file ^ (line &* 0xC2B2_AE3D_27D4_EB4F)
        if let id = recentSites.id(of: key, hash: hash) { return id }
        let id: UInt64
        if let known = sites[key] {
            id = known
        } else {
            id = UInt64(sites.count + 1)
            sites[key] = id
            let record = TraceRecord.site(id: id, file: file, line: line)
            record.encode(into: &records)
            define(record)
        }
        recentSites.remember(id, for: key, hash: hash)
        return id
    }

    private struct SiteKey: Hashable {
        var file: UInt64
        var line: UInt64
    }

    private mutating func add(_ utf8: [UInt8], _ define: (TraceRecord) -> Void) -> UInt64 {
        let id = nextID
        nextID += 1
        let record = TraceRecord.string(id: id, utf8: utf8)
        record.encode(into: &records)
        define(record)
        return id
    }
}
/// A direct-mapped cache of 64 recently used keys and their ids, in front of a dictionary: ids count
/// from 1, so an id of 0 marks an empty slot.
struct RecentIDs<Key: Equatable> {
    private var entries: ContiguousArray<(key: Key, id: UInt64)>

    init(empty: Key) {
        entries = ContiguousArray(repeating: (empty, 0), count: 64)
    }

    /// The id remembered for `key`, whose hash is `hash`, if its slot still holds it.
    @inline(__always)
    func id(of key: Key, hash: UInt64) -> UInt64? {
        let entry = entries[Self.slot(hash)]
        return entry.id != 0 && entry.key == key ? entry.id : nil
    }

    mutating func remember(_ id: UInt64, for key: Key, hash: UInt64) {
        entries[Self.slot(hash)] = (key, id)
    }

    @inline(__always)
    private static func slot(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }
}
#endif
