import Bind

// A social feed: post view models owned by the screen, shown in reused cells; a post's detail
// screen; the app is quit with the feed on screen.
// Planted bug: cells are reused without emptying their container, so each cell's labels stay bound
// to every post it ever showed — a like on post 1 is written into the cell that now shows post 21.

final class PostViewModel {
    let title: Output<String>
    let likes: Output<Int>
    let likesText: Output<String>

    init(number: Int) {
        title = Output(value: "post \(number)").labeled("post title")
        likes = Output(value: 0).labeled("likes")
        likesText = likes.map { "\($0) likes" }
    }

    func like() { likes.update(withValue: (likes.value ?? 0) + 1) }
}

final class PostCell {
    let titleLabel = Label()
    let likesLabel = Label()
    let bag = SubscriptionContainer()

    func prepareForReuse() { bag.unsubscribe() }

    func configure(with post: PostViewModel) {
        post.title.bind(to: titleLabel.binding[\.text]).add(to: bag)  // expect: duplicate-binding
        post.likesText.bind(to: likesLabel.binding[\.text]).add(to: bag)  // expect: duplicate-binding
    }
}

final class FeedScreen {
    let posts: [PostViewModel]
    let table = Table<PostCell>(visibleRows: 4) { _ in PostCell() }
    let forgetsToUnbind: Bool

    init(posts: [PostViewModel], forgetsToUnbind: Bool) {
        self.posts = posts
        self.forgetsToUnbind = forgetsToUnbind
    }

    func scroll(through rows: Range<Int>) {
        for row in rows {
            let (cell, isReused) = table.dequeue(row: row)
            BindTrace.scope("post cell for row \(row)") {
                if isReused && !forgetsToUnbind { cell.prepareForReuse() }
                cell.configure(with: posts[row])
            }
        }
    }
}

final class PostDetailScreen {
    let post: PostViewModel
    let likesLabel = Label()
    private(set) var shownLikes = 0
    private let bag = SubscriptionContainer()

    init(post: PostViewModel) { self.post = post }

    func show() {
        post.likesText.bind(to: likesLabel.binding[\.text]).add(to: bag)
        post.likes.bind { [weak self] in self?.shownLikes = $0 }.add(to: bag)
    }

    func close() { bag.unsubscribe() }
}

enum FeedApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let feed = FeedScreen(posts: (1...24).map(PostViewModel.init), forgetsToUnbind: buggy)
        BindTrace.scope("feed screen") {
            feed.scroll(through: 0..<24)
            feed.posts[0].like()
            BindTrace.scope("post detail") {
                let detail = PostDetailScreen(post: feed.posts[3])
                detail.show()
                feed.posts[3].like()
                detail.close()
            }
        }
        // Quit with the feed on screen: each cell keeps its current row's bindings.
        AppLifetime.shared.keep(feed)
    }
}
