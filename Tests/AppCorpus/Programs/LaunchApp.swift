import Bind

// An app's launch: an app-delegate-like object, alive for the whole run, makes two view models in
// its launch scope. It keeps the badge view model on purpose for the app's life (its only bound
// closure captures it `[weak self]`: it is kept by the delegate, not by a cycle, and is never
// named); it releases the onboarding view model once onboarding is over.
// Planted bug: the onboarding view model's step closure captures it strongly: view model → step →
// closure → view model, so releasing it frees nothing.
// Clean twin: the step closure captures it weakly, and it goes when the delegate lets it go.

final class BadgeViewModel {
    let unreadCount = Output<Int>(value: 0).labeled("unread count")
    private(set) var badgeText = ""
    private let bag = SubscriptionContainer()

    init() {
        unreadCount.bind { [weak self] in self?.badgeText = $0 == 0 ? "" : "\($0)" }.add(to: bag)
    }
}

final class OnboardingViewModel {
    let step = Output<Int>(value: 0).labeled("onboarding step")
    private(set) var visited: [Int] = []
    private let bag = SubscriptionContainer()

    init(capturesStrongly: Bool) {
        if capturesStrongly {
            // kept alive by: 'onboarding step' (Int) (the leak) → its subscriber list → subscription N (closure bound at LaunchApp.swift:{line}) → captures OnboardingViewModel strongly → .step → 'onboarding step' (Int), the Output it is bound to → its Subscription, held in SubscriptionContainer N (who owns the container: not recorded)
            step.bind { self.visited.append($0) }.add(to: bag)  // expect: retain-cycle
        } else {
            step.bind { [weak self] in self?.visited.append($0) }.add(to: bag)
        }
    }
}

final class LaunchDelegate {
    private(set) var badge: BadgeViewModel?
    private(set) var onboarding: OnboardingViewModel?

    func didFinishLaunching(onboardingCapturesStrongly: Bool) {
        BindTrace.scope("launch") {
            badge = BadgeViewModel()
            onboarding = OnboardingViewModel(capturesStrongly: onboardingCapturesStrongly)
            badge?.unreadCount.update(withValue: 3)
        }
    }

    func didFinishOnboarding() {
        onboarding?.step.update(withValue: 1)
        onboarding?.step.update(withValue: 2)
        onboarding = nil
    }
}

enum LaunchApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let delegate = LaunchDelegate()
        AppLifetime.shared.keep(delegate)
        delegate.didFinishLaunching(onboardingCapturesStrongly: buggy)
        delegate.didFinishOnboarding()
        delegate.badge?.unreadCount.update(withValue: 5)
    }
}
