/// The strings of a trace by id, as the consumer of a reader's batches learns them: each
/// ``EventBatch`` brings the strings defined since the previous one (``EventBatch/strings``).
///
/// ```swift
/// var strings = DefinedStrings()
/// reader.read(into: &batch)
/// strings.take(batch)
/// for index in 0..<batch.count { print(strings.event(in: batch, at: index)) }
/// ```
package struct DefinedStrings {
    /// By id; id 0 is the empty string ("none").
    package private(set) var texts: [String] = [""]

    package init() {}

    /// Learns the strings `batch` brings (once: a batch taken again adds nothing).
    package mutating func take(_ batch: borrowing EventBatch) {
        let known = texts.count - batch.firstString
        guard known < batch.strings.count else { return }
        // A batch always starts where the previous one ended; a gap (never made by the reader) stays empty.
        while texts.count < batch.firstString { texts.append("") }
        texts += batch.strings[max(known, 0)...]
    }

    /// The event at `index` of `batch` (taken) as a ``TraceEvent``, strings resolved.
    package func event(in batch: borrowing EventBatch, at index: Int) -> TraceEvent {
        TraceEvent(batch.events[index], in: batch, strings: texts)
    }
}
