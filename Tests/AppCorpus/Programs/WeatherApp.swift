import Bind

// A weather app: a service polled every minute publishes the temperature and the conditions, and a
// home screen shows them, the temperature through a text the service derives.
// Planted bug: the poller publishes every reading whole, changed or not. An unchanged temperature
// still runs the derived text and every label bound downstream: wasted updates. They are judged on
// the recorder's value previews, so only a trace recorded with `BIND_TRACE_VALUES=1` has them
// (`// expect-with-values:`; the corpus records this program in its own process with previews on).
// Clean twin: the poller publishes a value only when it differs from the one shown.

final class WeatherService {
    let temperature = Output<Int>(value: 20).labeled("temperature")  // expect-with-values: redundant-update
    let conditions = Output<String>(value: "sunny").labeled("conditions")  // expect-with-values: redundant-update
    let temperatureText: Output<String>

    init() {
        temperatureText = temperature.map { "\($0)°" }  // expect-with-values: redundant-update
            .labeled("temperature text")
    }

    /// One poll's reading; `onlyChanges` skips the values the Outputs already have.
    func publish(temperature reading: Int, conditions described: String, onlyChanges: Bool) {
        if !onlyChanges || temperature.value != reading { temperature.update(withValue: reading) }
        if !onlyChanges || conditions.value != described { conditions.update(withValue: described) }
    }
}

final class WeatherScreen {
    let temperatureLabel = Label()
    let conditionsLabel = Label()
    private let bag = SubscriptionContainer()

    func show(_ service: WeatherService) {
        service.temperatureText.bind { [weak self] in self?.temperatureLabel.text = $0 }.add(to: bag)
        service.conditions.bind { [weak self] in self?.conditionsLabel.text = $0 }.add(to: bag)
    }

    func close() { bag.unsubscribe() }
}

enum WeatherApp: CorpusProgram {
    static let sourcePath = #filePath
    static let recordsValuePreviews = true

    static func run(buggy: Bool) {
        let service = WeatherService()
        AppLifetime.shared.keep(service)
        BindTrace.scope("weather screen") {
            let screen = WeatherScreen()
            screen.show(service)
            let readings = [(20, "sunny"), (20, "sunny"), (21, "sunny"), (21, "cloudy"), (21, "cloudy")]
            for (temperature, conditions) in readings {
                service.publish(temperature: temperature, conditions: conditions, onlyChanges: !buggy)
            }
            screen.close()
        }
    }
}
