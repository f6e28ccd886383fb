// The Tracing build's `ContainerProbe`; the plain build's, with empty bodies, is in UntracedProbes.swift.

#if Tracing
import CBindCore

/// The identity of a ``SubscriptionContainer`` in traces.
@usableFromInline
struct ContainerProbe {
    /// Never reused within a process, unlike the container's address.
    @usableFromInline let id: UInt64

    @usableFromInline
    init() { id = bind_core_new_container_id() }
}
#endif
