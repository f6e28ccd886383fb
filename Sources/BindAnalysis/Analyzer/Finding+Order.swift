import BindTraceModel

extension Finding {
    /// The order of reports: by site (findings without one last), then kind, then message.
    package static func siteOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        switch (lhs.site, rhs.site) {
        case (let left?, let right?) where left != right: return left < right
        case (nil, _?): return false
        case (_?, nil): return true
        default: return (lhs.kind, lhs.message, lhs.event) < (rhs.kind, rhs.message, rhs.event)
        }
    }
}
