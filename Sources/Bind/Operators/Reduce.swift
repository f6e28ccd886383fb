import BindTraceFormat

extension Output {
    /// An Output of the running result of `nextPartialResult` over every value, starting from `initial`.
    ///
    /// As in the original framework, the result is empty until this Output first delivers a value;
    /// `initial` is the partial result that value is combined with.
    @inlinable
    public final func reduce<Result>(
        initial: Result, file: StaticString = #fileID, line: UInt = #line,
        nextPartialResult: @escaping (Result, Value) -> Result
    ) -> Output<Result> {
        let derived = derive(Result.self, kind: .reduce, file: file, line: line, storesValues: true)
        let accumulator = Guarded(initial)
        bindInternal(
            { value in
                let next = accumulator.update {
                    $0 = nextPartialResult($0, value); return $0
                }
                derived.updateFromOperator(next)
            }, file: file, line: line, captures: .init(nextPartialResult))
        return derived
    }

    /// ``reduce(initial:file:line:nextPartialResult:)`` as a function value: records no call site.
    @_disfavoredOverload
    @inlinable
    public final func reduce<Result>(initial: Result, nextPartialResult: @escaping (Result, Value) -> Result)
        -> Output<Result>
    {
        reduce(initial: initial, file: #fileID, line: #line, nextPartialResult: nextPartialResult)
    }
}
