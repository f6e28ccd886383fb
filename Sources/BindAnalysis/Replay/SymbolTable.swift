@_spi(Harness) import BindTraceModel

/// Every distinct text the replay has seen (sites' files, value and target types) once, by a small
/// number: nodes keep numbers instead of strings, so binding, releasing and grouping by site retain
/// nothing and hash integers; a text is looked up when a finding or the state names it.
///
/// Equal texts get one symbol, whichever trace string id or ``TraceEvent`` they came from.
final class SymbolTable {
    // Unchecked: used by the replay's one thread, never re-entered; the checks cost more than a lookup.
    /// By symbol; symbol 0 is the empty string.
    @exclusivity(unchecked) private var texts: [String] = [""]
    @exclusivity(unchecked) private var symbols: [String: UInt32] = ["": 0]
    /// The symbol of each string id of the trace read in batches (``EventBatch/strings``).
    @exclusivity(unchecked) private var traceSymbols: [UInt32] = [0]

    /// The symbol of `text`, new if it was never seen.
    func intern(_ text: String) -> UInt32 {
        if let symbol = symbols[text] { return symbol }
        let symbol = UInt32(texts.count)
        texts.append(text)
        symbols[text] = symbol
        return symbol
    }

    /// Learns the strings `batch` brings; a batch taken again adds nothing.
    @inline(__always)
    func take(_ batch: borrowing EventBatch) {
        // Asked once per batch, before its events; most batches define no string.
        guard batch.firstString + batch.strings.count > traceSymbols.count else { return }
        learn(batch)
    }

    @inline(never)
    private func learn(_ batch: borrowing EventBatch) {
        let known = traceSymbols.count - batch.firstString
        guard known < batch.strings.count else { return }
        // A batch starts where the previous one ended; a gap (never made by the reader) stays empty.
        while traceSymbols.count < batch.firstString { traceSymbols.append(0) }
        for text in batch.strings[max(known, 0)...] { traceSymbols.append(intern(text)) }
    }

    /// The symbol of the trace's string `id` (the reader checked that it was defined).
    @inline(__always)
    func symbol(ofTraceString id: UInt64) -> UInt32 {
        id < UInt64(traceSymbols.count) ? traceSymbols[Int(id)] : 0
    }

    subscript(symbol: UInt32) -> String { texts[Int(symbol)] }

    func site(_ key: SiteKey) -> SourceSite { SourceSite(file: self[key.file], line: key.line) }

    func target(_ key: TargetKey) -> BinderTarget { BinderTarget(type: self[key.type], identity: key.identity) }
}

/// A ``SourceSite`` by symbol: equal sites have equal keys.
struct SiteKey: Hashable {
    let file: UInt32
    let line: UInt

    /// One word instead of two: a release with updates hashes it (equal keys still compare both fields).
    func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(file) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: line))
    }
}

/// A ``BinderTarget`` by symbol.
struct TargetKey: Hashable {
    let type: UInt32
    let identity: UInt64
}
