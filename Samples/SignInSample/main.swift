import Bind
final class Label: BindableCompatible { var text = "" }
let name = Output<String>(value: "a").labeled("name")
let label = Label()
let count = name.map { $0.count }
let bag = SubscriptionContainer()
count.bind { print("count", $0) }.add(to: bag)
name.bind(to: label.binding[\.text])
BindTrace.scope("screen") {
  let other = Output<Int>(value: 1)
  other.bind { name.update(withValue: "x\($0)") }
  other.update(withValue: 2)
}
let r = Relay<Void>()
r.bind { print("fired") }
r.fire()
bag.unsubscribe()
