(function () {
  "use strict";
  var viewport = document.getElementById("graph-viewport");
  var image = document.getElementById("graph-image");
  var overlay = document.getElementById("graph-overlay");
  var boxes = overlay ? Array.prototype.slice.call(overlay.querySelectorAll(".node-box")) : [];
  // Output nodes (clicked, searched, redrawn by the slider); subscriber nodes are only outlined.
  var outputBoxes = boxes.filter(function (box) { return !box.classList.contains("subscriber-box"); });
  // Shows the graph's viewport around some node boxes (a selection); set before the image has loaded, it
  // waits for the load.
  var zoomTo = function () {};
  if (viewport && image) {
    var scale = 1, x = 0, y = 0, drag = null, moved = false;
    var apply = function () {
      image.style.transform = "translate(" + x + "px," + y + "px) scale(" + scale + ")";
      if (overlay) { overlay.style.transform = image.style.transform; }
      viewport.setAttribute("data-scale", scale.toFixed(3));
    };
    // The boxes are in the SVG's viewBox units; the image's natural size says what one is in pixels.
    var placeBoxes = function () {
      if (!overlay) { return; }
      var width = image.naturalWidth || image.width || 0;
      var units = Number(overlay.getAttribute("data-view-width")) || 1;
      var factor = width / units;
      overlay.style.width = width + "px";
      overlay.style.height = (image.naturalHeight || image.height || 0) + "px";
      boxes.forEach(function (box) {
        var place = box.getAttribute("data-box").split(" ").map(Number);
        box.style.left = (place[0] * factor) + "px";
        box.style.top = (place[1] * factor) + "px";
        box.style.width = (place[2] * factor) + "px";
        box.style.height = (place[3] * factor) + "px";
      });
    };
    var reset = function () {
      placeBoxes();
      var width = image.naturalWidth || image.width || 1, height = image.naturalHeight || image.height || 1;
      scale = Math.min(1, (viewport.clientWidth - 16) / width, (viewport.clientHeight - 16) / height);
      x = (viewport.clientWidth - width * scale) / 2;
      y = (viewport.clientHeight - height * scale) / 2;
      apply();
    };
    var zoomAt = function (factor, px, py) {
      var next = Math.min(40, Math.max(0.02, scale * factor));
      x = px - (px - x) * (next / scale);
      y = py - (py - y) * (next / scale);
      scale = next;
      apply();
    };
    var zoomCenter = function (factor) { zoomAt(factor, viewport.clientWidth / 2, viewport.clientHeight / 2); };
    // Fits the boxes' union with a margin, magnified at most 2.5 times (readable, still in context).
    var pending = null;
    zoomTo = function (targets) {
      if (!targets.length) { return; }
      if (!image.complete || !(image.naturalWidth || image.width)) { pending = targets; return; }
      placeBoxes();
      var left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
      targets.forEach(function (box) {
        left = Math.min(left, box.offsetLeft);
        top = Math.min(top, box.offsetTop);
        right = Math.max(right, box.offsetLeft + box.offsetWidth);
        bottom = Math.max(bottom, box.offsetTop + box.offsetHeight);
      });
      var margin = 48, width = Math.max(1, right - left), height = Math.max(1, bottom - top);
      scale = Math.max(0.02, Math.min(2.5, (viewport.clientWidth - 2 * margin) / width,
        (viewport.clientHeight - 2 * margin) / height));
      x = viewport.clientWidth / 2 - (left + width / 2) * scale;
      y = viewport.clientHeight / 2 - (top + height / 2) * scale;
      apply();
    };
    var loaded = function () {
      reset();
      if (pending) { zoomTo(pending); pending = null; }
    };
    viewport.addEventListener("wheel", function (event) {
      event.preventDefault();
      var box = viewport.getBoundingClientRect();
      zoomAt(Math.exp(-event.deltaY * 0.0015), event.clientX - box.left, event.clientY - box.top);
    }, { passive: false });
    viewport.addEventListener("pointerdown", function (event) {
      drag = { x: event.clientX - x, y: event.clientY - y, startX: event.clientX, startY: event.clientY };
      moved = false;
      viewport.setPointerCapture(event.pointerId);
      viewport.classList.add("dragging");
    });
    viewport.addEventListener("pointermove", function (event) {
      if (!drag) { return; }
      if (Math.abs(event.clientX - drag.startX) + Math.abs(event.clientY - drag.startY) > 4) { moved = true; }
      x = event.clientX - drag.x;
      y = event.clientY - drag.y;
      apply();
    });
    var endDrag = function () { drag = null; viewport.classList.remove("dragging"); };
    viewport.addEventListener("pointerup", endDrag);
    viewport.addEventListener("pointercancel", endDrag);
    document.getElementById("graph-zoom-in").addEventListener("click", function () { zoomCenter(1.25); });
    document.getElementById("graph-zoom-out").addEventListener("click", function () { zoomCenter(0.8); });
    document.getElementById("graph-reset").addEventListener("click", reset);
    viewport.addEventListener("keydown", function (event) {
      var step = 40;
      if (event.key === "+" || event.key === "=") { zoomCenter(1.25); }
      else if (event.key === "-") { zoomCenter(0.8); }
      else if (event.key === "0") { reset(); }
      else if (event.key === "ArrowLeft") { x += step; apply(); }
      else if (event.key === "ArrowRight") { x -= step; apply(); }
      else if (event.key === "ArrowUp") { y += step; apply(); }
      else if (event.key === "ArrowDown") { y -= step; apply(); }
      else { return; }
      event.preventDefault();
    });
    if (image.complete) { loaded(); } else { image.addEventListener("load", loaded); }
    // A click (not a drag) on an Output's node lists its findings.
    viewport.addEventListener("click", function (event) {
      if (moved) { return; }
      var hit = null;
      outputBoxes.forEach(function (box) {
        var r = box.getBoundingClientRect();
        if (event.clientX >= r.left && event.clientX <= r.right && event.clientY >= r.top &&
            event.clientY <= r.bottom) { hit = box; }
      });
      if (hit) { pick(hit); }
    });
  }

  var filter = document.getElementById("event-filter");
  var kind = document.getElementById("event-kind");
  var status = document.getElementById("event-status");
  var table = document.getElementById("event-rows");
  if (filter && kind && status && table) {
    var rows = Array.prototype.slice.call(table.querySelectorAll("tr[data-kind]"));
    var gaps = Array.prototype.slice.call(table.querySelectorAll("tr.gap"));
    var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
    var update = function () {
      var query = filter.value.trim().toLowerCase(), wanted = kind.value, shown = 0;
      rows.forEach(function (row, index) {
        var match = (!wanted || row.getAttribute("data-kind") === wanted) &&
          (!query || texts[index].indexOf(query) >= 0);
        row.hidden = !match;
        if (match) { shown += 1; }
      });
      gaps.forEach(function (gap) { gap.hidden = Boolean(query || wanted); });
      status.textContent = shown + " of " + rows.length + " rows shown";
    };
    filter.addEventListener("input", update);
    kind.addEventListener("change", update);
    update();
  }
  // Searching findings by label or site: those whose text does not contain the query are hidden.
  var findingFilter = document.getElementById("finding-filter");
  var findingStatus = document.getElementById("finding-status");
  if (findingFilter && findingStatus) {
    var articles = Array.prototype.slice.call(document.querySelectorAll("article.finding"));
    var findingTexts = articles.map(function (article) { return article.textContent.toLowerCase(); });
    // Nodes are searched by their details' text (name, creation site, bindings' lines).
    var nodeTexts = {};
    Array.prototype.forEach.call(document.querySelectorAll("#node-details .node-detail"), function (detail) {
      nodeTexts[detail.getAttribute("data-node")] = detail.textContent.toLowerCase();
    });
    var search = function () {
      var query = findingFilter.value.trim().toLowerCase(), shown = 0, nodes = 0;
      articles.forEach(function (article, index) {
        var match = !query || findingTexts[index].indexOf(query) >= 0;
        article.hidden = !match;
        if (match) { shown += 1; }
      });
      outputBoxes.forEach(function (box) {
        var text = nodeTexts[box.getAttribute("data-node")];
        var match = Boolean(query) && text !== undefined && text.indexOf(query) >= 0;
        box.classList.toggle("match", match);
        if (match) { nodes += 1; }
      });
      if (overlay) { overlay.setAttribute("data-matched", String(nodes)); }
      findingStatus.textContent = shown + " of " + articles.length + " findings shown" +
        (query && outputBoxes.length ? ", " + nodes + " node" + (nodes === 1 ? "" : "s") + " outlined" : "");
    };
    findingFilter.addEventListener("input", search);
    search();
  }

  // A picked node: outlined, and the findings about its Output listed as links under the graph.
  var panel = document.getElementById("node-panel");
  var pick = function (box) {
    if (!panel) { return; }
    boxes.forEach(function (other) { other.classList.toggle("picked", other === box); });
    while (panel.firstChild) { panel.removeChild(panel.firstChild); }
    var id = box.getAttribute("data-node").slice(1);
    var about = document.querySelectorAll("article.finding[data-outputs]");
    var links = 0;
    Array.prototype.forEach.call(about, function (article) {
      if (article.getAttribute("data-outputs").split(" ").indexOf(id) < 0) { return; }
      var link = document.createElement("a");
      link.href = "#" + article.id;
      var kind = article.querySelector(".kind"), site = article.querySelector(".site");
      link.textContent = (kind ? kind.textContent : "finding") + " " + (site ? site.textContent : "");
      panel.appendChild(link);
      links += 1;
    });
    var heading = document.createElement("div");
    heading.textContent = "Output #" + id + ": " + (links === 1 ? "1 finding" : links + " findings");
    panel.insertBefore(heading, panel.firstChild);
    // Its name, updates and bindings: a copy of elements the report wrote (text stays text).
    Array.prototype.forEach.call(document.querySelectorAll("#node-details .node-detail"), function (detail) {
      if (detail.getAttribute("data-node") === box.getAttribute("data-node")) {
        panel.appendChild(detail.cloneNode(true));
      }
    });
    panel.setAttribute("data-findings", String(links));
    panel.hidden = false;
  };

  // Selecting a finding outlines the nodes of what it is about: its subscriptions' subscriber nodes (the
  // closure or target that leaks) when it names subscriptions drawn in the graph, else its Outputs' nodes
  // (a collapsed group by its first member). The graph zooms to them, and the address names the finding.
  var findings = Array.prototype.slice.call(document.querySelectorAll("article.finding[data-outputs]"));
  var words = function (element, name) {
    return (element && element.getAttribute(name) || "").split(" ").filter(function (word) { return word; });
  };
  var select = function (article) {
    findings.forEach(function (other) { other.classList.toggle("selected", other === article); });
    var subscriptions = {};
    words(article, "data-subscriptions").forEach(function (id) { subscriptions[id] = true; });
    var targets = boxes.filter(function (box) {
      return words(box, "data-subscriptions").some(function (id) { return subscriptions[id] === true; });
    });
    if (!targets.length) {
      var wanted = {};
      words(article, "data-outputs").forEach(function (id) { wanted["o" + id] = true; wanted["g" + id] = true; });
      targets = outputBoxes.filter(function (box) { return wanted[box.getAttribute("data-node")] === true; });
    }
    boxes.forEach(function (box) { box.classList.toggle("highlighted", targets.indexOf(box) >= 0); });
    if (overlay) { overlay.setAttribute("data-highlighted", String(targets.length)); }
    if (!article) { return; }
    zoomTo(targets);
    if (window.location.hash !== "#" + article.id) { window.history.replaceState(null, "", "#" + article.id); }
    showEvent(Number(article.getAttribute("data-event") || 0));
  };
  // Scrolls an element to the top of the window, below the sticky navigation (CSS scroll-margin-top);
  // again once the page has loaded, in case the layout moved.
  var reveal = function (element) {
    if (!element) { return; }
    element.scrollIntoView({ block: "start" });
    if (document.readyState !== "complete") {
      window.addEventListener("load", function () { element.scrollIntoView({ block: "start" }); }, { once: true });
    }
  };
  var graphSection = document.getElementById("graph");
  // A selection by click or Enter brings the graph into view: its outlines are the answer.
  var showGraph = function () {
    if (viewport && graphSection) { graphSection.scrollIntoView({ block: "nearest" }); }
  };
  // The event table scrolls to a finding's event: its row, or the nearest sampled row before it.
  var eventTable = document.getElementById("event-rows");
  var eventRows = eventTable ? Array.prototype.slice.call(eventTable.querySelectorAll("tr[id^='event-']")) : [];
  var rowByEvent = {};
  eventRows.forEach(function (row) { rowByEvent[row.id.slice(6)] = row; });
  // An event's chain of direct causes, followed through the table's rows (data-cause), told with
  // the rows' own text. A cause the sampled table left out ends the chain, named by its number.
  var chain = document.getElementById("event-chain");
  var showChain = function (event) {
    if (!chain) { return; }
    while (chain.firstChild) { chain.removeChild(chain.firstChild); }
    var current = String(event), links = 0, seen = {};
    while (current && !seen[current] && links < 500) {
      seen[current] = true;
      var row = rowByEvent[current], item = document.createElement("li");
      var prefix = links === 0 ? "Event #" : "caused by event #";
      if (row) {
        var cells = row.querySelectorAll("td");
        item.textContent = prefix + current + ", " + cells[3].textContent + ": " + cells[4].textContent;
        current = row.getAttribute("data-cause");
        if (!current) { item.textContent += " (the root: no event caused it)"; }
      } else {
        item.textContent = prefix + current + " (not in the table's sample: bind-trace why tells the rest)";
        current = null;
      }
      chain.appendChild(item);
      links += 1;
    }
    chain.setAttribute("data-links", String(links));
    chain.hidden = false;
  };
  var showEvent = function (event) {
    if (!eventTable || !event) { return; }
    var found = null;
    eventRows.forEach(function (row) {
      var sequence = Number(row.id.slice(6));
      row.classList.remove("current");
      if (sequence <= event && !row.hidden) { found = row; }
    });
    eventTable.setAttribute("data-current", found ? found.id.slice(6) : "");
    showChain(event);
    if (!found) { return; }
    found.classList.add("current");
    var wrap = eventTable.closest(".table-wrap");
    if (wrap) { wrap.scrollTop = found.offsetTop - wrap.clientHeight / 3; }
  };
  if (eventTable) {
    eventTable.addEventListener("click", function (event) {
      var row = event.target.closest ? event.target.closest("tr[id^='event-']") : null;
      if (row) { showEvent(Number(row.id.slice(6))); }
    });
  }
  // j / k (or the down and up arrows on a finding) move to the next or previous shown finding.
  var step = function (by) {
    var shown = findings.filter(function (article) { return !article.hidden; });
    if (!shown.length) { return; }
    var at = shown.indexOf(document.querySelector("article.finding.selected"));
    var next = shown[at < 0 ? (by > 0 ? 0 : shown.length - 1) : Math.min(shown.length - 1, Math.max(0, at + by))];
    select(next);
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: "nearest" });
  };
  document.addEventListener("keydown", function (event) {
    var target = event.target, tag = target && target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey ||
        event.altKey) { return; }
    var onFinding = target && target.classList && target.classList.contains("finding");
    if (event.key === "j" || (onFinding && event.key === "ArrowDown")) { step(1); }
    else if (event.key === "k" || (onFinding && event.key === "ArrowUp")) { step(-1); }
    else { return; }
    event.preventDefault();
  });
  findings.forEach(function (article) {
    article.addEventListener("click", function () {
      select(article);
      showGraph();
    });
    article.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); select(article); showGraph(); }
    });
  });
  // The time slider: an Output's node is covered while it was not alive after the chosen event
  // (created at or before it, released after it), as `bind-trace graph --at` would leave it out.
  var slider = document.getElementById("graph-time");
  var sliderLabel = document.getElementById("graph-time-label");
  var caption = document.getElementById("graph-caption");
  var drawnCaption = caption ? caption.textContent : "";
  var showAt = function (at) {
    if (!slider) { return; }
    slider.value = String(at);
    var gone = 0;
    outputBoxes.forEach(function (box) {
      var life = (box.getAttribute("data-life") || "").split(" ");
      if (life.length < 2) { return; }
      var created = Number(life[0]), released = life[1] === "" ? Infinity : Number(life[1]);
      var alive = created <= at && released > at;
      box.classList.toggle("gone", !alive);
      if (!alive) { gone += 1; }
    });
    if (overlay) { overlay.setAttribute("data-gone", String(gone)); }
    var end = String(at) === slider.max;
    if (sliderLabel) { sliderLabel.textContent = "#" + at + (end ? " (the end)" : ""); }
    // The caption says which moment the picture shows now: the one drawn, or the slider's.
    if (caption) {
      caption.textContent = String(at) === slider.getAttribute("data-drawn") ? drawnCaption
        : "Outputs alive after event #" + at + (end ? " (the end)" : "") + ": the others are covered";
    }
  };
  if (slider) { slider.addEventListener("input", function () { showAt(Number(slider.value)); }); }
  // An address names a finding, a moment, an event or a node: the page shows it and scrolls to it.
  var fromAddress = function () {
    var match = /^#finding-([0-9]+)$/.exec(window.location.hash);
    if (match) {
      var article = document.getElementById("finding-" + match[1]);
      if (article) { select(article); reveal(article); }
    }
    var at = /^#at-([0-9]+)$/.exec(window.location.hash);
    if (at && slider) {
      showAt(Math.min(Number(at[1]), Number(slider.max)));
      reveal(graphSection);
    }
    var event = /^#event-([0-9]+)$/.exec(window.location.hash);
    if (event) {
      showEvent(Number(event[1]));
      reveal(document.getElementById("events"));
    }
    var node = /^#node-([og][0-9]+)$/.exec(window.location.hash);
    if (node) {
      outputBoxes.forEach(function (box) {
        if (box.getAttribute("data-node") === node[1]) { pick(box); zoomTo([box]); }
      });
      reveal(graphSection);
    }
  };
  window.addEventListener("hashchange", fromAddress);
  fromAddress();
  document.body.setAttribute("data-script", "ran");
  // For measuring the page (BENCHMARKS.md): when its script had run, and its first paint.
  document.body.setAttribute("data-ready-ms", String(Math.round(performance.now())));
  window.requestAnimationFrame(function () {
    window.setTimeout(function () {
      var paint = performance.getEntriesByName("first-contentful-paint")[0];
      if (paint) { document.body.setAttribute("data-first-paint-ms", String(Math.round(paint.startTime))); }
    }, 0);
  });
})();
