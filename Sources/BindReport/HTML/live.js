(function () {
  "use strict";
  // The live page of `bind-trace serve`. Every state arrives as JSON on the event stream; every string
  // from the trace is placed with textContent (or as an SVG text node's data), never parsed as markup.
  var SVG = "http://www.w3.org/2000/svg";
  var MAX_EVENT_ROWS = 200;
  var main = document.getElementById("traces");
  var pauseButton = document.getElementById("pause");
  var connection = document.getElementById("connection");
  var held = document.getElementById("held");
  var paused = false;
  var latest = {};
  var heldCount = 0;
  var views = {};

  var element = function (name, className, text) {
    var node = document.createElement(name);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  };

  var table = function (headings) {
    var wrapper = element("div", "live-table");
    var grid = element("table", "events");
    var head = element("tr");
    headings.forEach(function (heading) { head.appendChild(element("th", null, heading)); });
    var thead = element("thead");
    thead.appendChild(head);
    grid.appendChild(thead);
    var body = element("tbody");
    grid.appendChild(body);
    wrapper.appendChild(grid);
    return { wrapper: wrapper, body: body };
  };

  var row = function (cells) {
    var line = element("tr");
    cells.forEach(function (cell) { line.appendChild(element("td", null, cell)); });
    return line;
  };

  // One section per trace, made the first time its state arrives.
  var viewFor = function (state) {
    var view = views[state.trace];
    if (view) { return view; }
    var empty = document.getElementById("no-traces");
    if (empty) { empty.remove(); }
    var section = element("section", "trace");
    section.id = "trace-" + state.trace;
    section.setAttribute("data-trace", String(state.trace));
    var title = element("h2");
    var name = element("span", "trace-name");
    var badge = element("span", "badge");
    title.appendChild(name);
    title.appendChild(badge);
    section.appendChild(title);
    var statusText = element("p", "note status-text");
    section.appendChild(statusText);
    var figures = element("div", "figures");
    section.appendChild(figures);
    section.appendChild(element("h3", null, "Findings"));
    var findings = element("div", "findings");
    section.appendChild(findings);
    section.appendChild(element("h3", null, "Graph"));
    var graph = document.createElementNS(SVG, "svg");
    graph.setAttribute("class", "live-graph");
    section.appendChild(graph);
    section.appendChild(element("h3", null, "Outputs"));
    var outputs = table(["Output", "kind", "created at", "updates", "last value", "subscriptions"]);
    outputs.body.className = "outputs";
    section.appendChild(outputs.wrapper);
    section.appendChild(element("h3", null, "Newest events"));
    var events = table(["#", "event", ""]);
    events.body.className = "event-rows";
    section.appendChild(events.wrapper);
    main.appendChild(section);
    view = {
      section: section, name: name, badge: badge, statusText: statusText, figures: figures, findings: findings,
      graph: graph, outputs: outputs.body, events: events.body, lastSequence: 0, run: 0, known: {}
    };
    views[state.trace] = view;
    return view;
  };

  var figure = function (value, label) {
    var box = element("div", "figure");
    box.appendChild(element("div", "value", Number(value).toLocaleString("en-US")));
    box.appendChild(element("div", "label", label));
    return box;
  };

  var renderFindings = function (view, findings) {
    view.findings.replaceChildren();
    if (findings.length === 0) {
      view.findings.appendChild(element("p", "note", "No findings so far (judged when a scope ends)."));
      return;
    }
    findings.forEach(function (finding) {
      var article = element("article", "finding " + finding.severity);
      article.setAttribute("data-kind", finding.kind);
      var heading = element("div", "finding-title");
      heading.appendChild(element("strong", null, finding.kind));
      if (finding.site) { heading.appendChild(element("code", null, " " + finding.site)); }
      article.appendChild(heading);
      article.appendChild(element("p", "message", finding.message));
      view.findings.appendChild(article);
    });
  };

  // A layered drawing: each Output one column right of the Outputs it is derived from.
  var renderGraph = function (view, state) {
    var graph = view.graph;
    graph.replaceChildren();
    var depth = {};
    state.outputs.forEach(function (output) { depth[output.id] = 0; });
    for (var pass = 0; pass < 8; pass += 1) {
      state.edges.forEach(function (edge) {
        if (depth[edge.source] !== undefined && depth[edge.derived] !== undefined) {
          depth[edge.derived] = Math.max(depth[edge.derived], Math.min(depth[edge.source] + 1, 12));
        }
      });
    }
    var rows = {};
    var place = {};
    var width = 200, height = 26;
    state.outputs.forEach(function (output) {
      var column = depth[output.id];
      rows[column] = (rows[column] || 0) + 1;
      place[output.id] = { x: 10 + column * (width + 40), y: 10 + (rows[column] - 1) * (height + 10) };
    });
    var columns = Object.keys(rows).length;
    var tallest = Math.max.apply(null, [1].concat(Object.keys(rows).map(function (key) { return rows[key]; })));
    graph.setAttribute("viewBox", "0 0 " + Math.max(400, 20 + columns * (width + 40)) + " " +
      Math.max(60, 20 + tallest * (height + 10)));
    state.edges.forEach(function (edge) {
      var from = place[edge.source], to = place[edge.derived];
      if (!from || !to) { return; }
      var line = document.createElementNS(SVG, "path");
      line.setAttribute("class", "edge");
      line.setAttribute("d", "M" + (from.x + width) + " " + (from.y + height / 2) + " L" + to.x + " " +
        (to.y + height / 2));
      graph.appendChild(line);
    });
    state.outputs.forEach(function (output) {
      var spot = place[output.id];
      var group = document.createElementNS(SVG, "g");
      group.setAttribute("class", view.known[output.id] ? "node" : "node fresh");
      group.setAttribute("data-output", String(output.id));
      var box = document.createElementNS(SVG, "rect");
      box.setAttribute("x", spot.x);
      box.setAttribute("y", spot.y);
      box.setAttribute("width", width);
      box.setAttribute("height", height);
      box.setAttribute("rx", 4);
      var label = document.createElementNS(SVG, "text");
      label.setAttribute("x", spot.x + 6);
      label.setAttribute("y", spot.y + 17);
      var text = output.name.length > 30 ? output.name.slice(0, 29) + "…" : output.name;
      label.textContent = text;
      var tip = document.createElementNS(SVG, "title");
      tip.textContent = output.name + " — " + output.updates + " updates";
      group.appendChild(box);
      group.appendChild(label);
      group.appendChild(tip);
      graph.appendChild(group);
    });
  };

  var renderEvents = function (view, events) {
    var now = Date.now();
    var fresh = events.filter(function (event) { return event.sequence > view.lastSequence; });
    if (fresh.length > 0 && view.lastSequence > 0 && fresh[0].sequence > view.lastSequence + 1) {
      var gap = row(["…", "", (fresh[0].sequence - view.lastSequence - 1).toLocaleString("en-US") +
        " events not shown (too many to stream)"]);
      gap.className = "gap";
      view.events.appendChild(gap);
    }
    fresh.forEach(function (event) {
      var line = row([event.sequence, event.kind, event.text]);
      line.setAttribute("data-sequence", String(event.sequence));
      line.setAttribute("data-arrived", String(now));
      view.events.appendChild(line);
    });
    if (fresh.length > 0) { view.lastSequence = fresh[fresh.length - 1].sequence; }
    while (view.events.childElementCount > MAX_EVENT_ROWS) { view.events.firstElementChild.remove(); }
  };

  var render = function (state) {
    var view = viewFor(state);
    if (state.run !== view.run) {
      // Another run on the same path (or the first): its events count from 1 again.
      if (view.run !== 0) {
        var began = state.segment
          ? "segment " + state.segment + " of the flight recording began"
          : "run " + state.run + " started on the same path";
        var restart = row(["—", "", began]);
        restart.className = "gap";
        view.events.appendChild(restart);
      }
      view.run = state.run;
      view.lastSequence = 0;
      view.known = {};
    }
    view.section.setAttribute("data-status", state.status);
    view.section.setAttribute("data-run", String(state.run));
    var which = state.segment ? " (segment " + state.segment + ")" : (state.run > 1 ? " (run " + state.run + ")" : "");
    view.name.textContent = state.name + which;
    view.badge.textContent = state.status;
    view.badge.className = "badge " + state.status;
    view.statusText.textContent = state.statusText;
    var counters = state.counters;
    view.figures.replaceChildren(figure(counters.events, "events"), figure(counters.outputs, "Outputs alive"),
      figure(counters.subscriptions, "subscriptions"), figure(counters.findings, "findings"));
    renderFindings(view, state.findings);
    renderGraph(view, state);
    view.outputs.replaceChildren();
    state.outputs.forEach(function (output) {
      var line = row([output.name, output.kind, output.site, output.updates,
        output.value === null ? "" : output.value, output.subscriptions]);
      line.setAttribute("data-output", String(output.id));
      view.outputs.appendChild(line);
      view.known[output.id] = true;
    });
    if (counters.outputs > counters.outputsShown) {
      var more = row(["… and " + (counters.outputs - counters.outputsShown).toLocaleString("en-US") +
        " older Outputs alive", "", "", "", "", ""]);
      more.className = "gap";
      view.outputs.appendChild(more);
    }
    renderEvents(view, state.events);
    view.section.setAttribute("data-sequence", String(view.lastSequence));
  };

  var showHeld = function () {
    held.textContent = paused ? (heldCount + " updates held while paused") : "";
  };

  pauseButton.addEventListener("click", function () {
    paused = !paused;
    pauseButton.setAttribute("aria-pressed", paused ? "true" : "false");
    pauseButton.textContent = paused ? "Resume" : "Pause";
    document.body.setAttribute("data-paused", paused ? "true" : "false");
    if (!paused) {
      Object.keys(latest).forEach(function (key) { render(latest[key]); });
      latest = {};
      heldCount = 0;
    }
    showHeld();
  });

  // The token that let this page in lets its stream in too; it never leaves this origin.
  var token = new URLSearchParams(window.location.search).get("token") || "";
  var source = new EventSource("events?token=" + encodeURIComponent(token));
  source.addEventListener("open", function () {
    connection.textContent = "connected";
    document.body.setAttribute("data-connection", "open");
  });
  source.addEventListener("error", function () {
    connection.textContent = "disconnected: the server stopped or the page lost it; retrying";
    document.body.setAttribute("data-connection", "error");
  });
  source.addEventListener("state", function (message) {
    var state;
    try { state = JSON.parse(message.data); } catch (error) { return; }
    if (paused) {
      // The stream goes on underneath: only the newest state of each trace is kept, shown on resume.
      latest[state.trace] = state;
      heldCount += 1;
      showHeld();
      return;
    }
    render(state);
  });
  document.body.setAttribute("data-script", "ran");
})();
