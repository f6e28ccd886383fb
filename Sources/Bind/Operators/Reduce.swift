extension Output {
    /// An Output of the running result of `nextPartialResult` over every value, starting from `initial`.
    ///
    /// The result holds `initial` until this Output first delivers a value.
    public final func reduce<Result>(
        initial: Result, file: StaticString = #fileID, line: UInt = #line,
        nextPartialResult: @escaping (Result, Value) -> Result
    ) -> Output<Result> {
        let derived = derive(Result.self, kind: .reduce, file: file, line: line, storesValues: true)
        derived.initial(initial)
        let accumulator = Guarded(initial)
        bindInternal(
            { value in
                let next = accumulator.update { $0 = nextPartialResult($0, value); return $0 }
                derived.update(withValue: next)
            }, file: file, line: line)
        return derived
    }
}
