import Bind

// A photo gallery: an app-wide image cache, and a gallery screen that loads its thumbnails in
// parallel child tasks (on other threads) and shows the cache's progress.
// Planted bug: each loading task binds to the cache and drops the Subscription. The binds happen
// on other threads, inside the screen's tasks: they are judged with the screen's scope.

final class ImageCache: Sendable {
    let loaded = Output<Int>(value: 0).labeled("images loaded")
}

final class GalleryScreen: Sendable {
    let cache: ImageCache
    let progress = Output<Int>(value: 0).labeled("gallery progress")
    let thumbnails = Output<[String]>(value: []).labeled("thumbnails")
    private let bag = SubscriptionContainer()

    init(cache: ImageCache) { self.cache = cache }

    func loadThumbnails(count: Int, dropsSubscription: Bool) async {
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask { self.load(index, dropsSubscription: dropsSubscription) }
            }
        }
    }

    private func load(_ index: Int, dropsSubscription: Bool) {
        let progress = progress
        if dropsSubscription {
            cache.loaded.bind { progress.update(withValue: $0) }  // expect: leaked-subscription
        } else {
            cache.loaded.bind { progress.update(withValue: $0) }.add(to: bag)
        }
        thumbnails.update(withValue: (thumbnails.value ?? []) + ["thumbnail \(index)"])
    }

    func close() { bag.unsubscribe() }
}

enum GalleryApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) async {
        let cache = ImageCache()
        AppLifetime.shared.keep(cache)
        await BindTrace.scope("gallery screen") {
            let screen = GalleryScreen(cache: cache)
            await screen.loadThumbnails(count: 6, dropsSubscription: buggy)
            cache.loaded.update(withValue: 6)
            screen.close()
        }
        cache.loaded.update(withValue: 7)
    }
}
