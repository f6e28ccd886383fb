import BindTraceFormat

extension Output where Value: Equatable {
    /// An Output that passes a value on only when it differs from the one before.
    ///
    /// This Output's current value is passed on at once, so a view bound to the result shows the
    /// current state (the original framework dropped it). Unlike the original's, the result does not
    /// retain this Output.
    @inlinable
    public final func ignoringDuplicates(file: StaticString = #fileID, line: UInt = #line) -> Output<Value> {
        let derived = derive(Value.self, kind: .ignoringDuplicates, file: file, line: line)
        let previous = Guarded<Value?>(nil)
        bindInternal(
            { value in
                let isNew = previous.update { last in
                    defer { last = value }
                    return last != value
                }
                if isNew { derived.updateFromOperator(value) }
            }, file: file, line: line)
        return derived
    }
}
