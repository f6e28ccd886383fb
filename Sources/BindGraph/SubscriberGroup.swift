import BindAnalysis
import BindTraceModel

/// Subscriptions of one Output drawn as one node: same Binder target type (or closure) and line.
struct SubscriberGroup: Sendable {
    struct Key: Hashable, Sendable, Comparable {
        var targetType: String?
        var site: SourceSite
        var isDangling: Bool
        /// The finding kinds of its subscriptions, so that leaked and healthy ones stay apart.
        var findings: String

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.site, lhs.targetType ?? "", lhs.findings, lhs.isDangling ? 1 : 0)
                < (rhs.site, rhs.targetType ?? "", rhs.findings, rhs.isDangling ? 1 : 0)
        }

        /// A stable short id for node names.
        var hashValueString: String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in "\(targetType ?? "")|\(site)|\(isDangling)|\(findings)".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return String(hash, radix: 36)
        }
    }

    var key: Key
    var subscriptions: [UInt64] = []
    var isDangling: Bool { key.isDangling }

    /// Groups of several Outputs (a collapsed node) added up by key.
    static func merged(_ groups: [SubscriberGroup]) -> [SubscriberGroup] {
        var byKey: [Key: SubscriberGroup] = [:]
        for group in groups {
            byKey[group.key, default: SubscriberGroup(key: group.key)].subscriptions += group.subscriptions
        }
        return byKey.values.sorted { $0.key < $1.key }
    }
}
