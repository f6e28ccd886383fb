/// The report page's only style sheet and only script, inlined so the file works offline.
///
/// The Content-Security-Policy allows exactly these two by hash: nothing from the trace can add
/// another script or style, and no inline `style=` or event-handler attribute runs.
enum HTMLAssets {
    static let style = """

        :root { --ink: #1c2430; --muted: #5f6b7a; --line: #dfe3ea; --paper: #ffffff; --wash: #f5f7fa;
          --accent: #2f6fde; --error: #c62828; --error-wash: #fdecea; --warning: #a15c00; --warning-wash: #fff4e0;
          --ok: #2e7d32; --ok-wash: #e8f5e9; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
          sans-serif; color: var(--ink); background: var(--wash); }
        code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace;
          font-size: 12.5px; }
        header { background: #17202c; color: #fff; padding: 18px 32px; }
        header h1 { margin: 0; font-size: 20px; font-weight: 600; }
        header .subtitle { color: #aab6c5; margin-top: 4px; }
        header code { color: #dbe6f3; }
        nav { display: flex; gap: 18px; padding: 0 32px; background: #fff; border-bottom: 1px solid var(--line);
          position: sticky; top: 0; z-index: 2; }
        nav a { color: var(--muted); text-decoration: none; padding: 10px 0; border-bottom: 2px solid transparent; }
        nav a:hover { color: var(--ink); border-bottom-color: var(--accent); }
        main { max-width: 1280px; margin: 0 auto; padding: 20px 32px 48px; }
        section { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 18px 22px;
          margin-bottom: 20px; }
        h2 { font-size: 16px; margin: 0 0 12px; display: flex; align-items: baseline; gap: 10px; }
        h2 .count { color: var(--muted); font-weight: 400; font-size: 13px; }
        .note { color: var(--muted); font-size: 13px; margin: 4px 0 12px; }
        .figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; }
        .figure { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; background: var(--wash); }
        .figure .value { font-size: 20px; font-weight: 600; overflow-wrap: anywhere; }
        .figure .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
        .verdict { display: inline-block; border-radius: 999px; padding: 2px 10px; font-size: 12px; font-weight: 600; }
        .verdict.error { background: var(--error-wash); color: var(--error); }
        .verdict.warning { background: var(--warning-wash); color: var(--warning); }
        .verdict.ok { background: var(--ok-wash); color: var(--ok); }
        .finding { border: 1px solid var(--line); border-left: 4px solid var(--warning); border-radius: 6px;
          padding: 10px 14px; margin: 10px 0; }
        .finding.error { border-left-color: var(--error); }
        .finding .head { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
        .finding .kind { font-weight: 600; }
        .finding .message { margin: 6px 0; overflow-wrap: anywhere; }
        .finding .site { color: var(--accent); }
        .finding ul { margin: 4px 0; padding-left: 20px; color: var(--muted); }
        .finding .explanation { color: var(--muted); font-size: 13px; margin-top: 6px; }
        .graph-tools { display: flex; gap: 6px; margin-bottom: 8px; }
        button { font: inherit; border: 1px solid var(--line); background: #fff; border-radius: 5px; padding: 3px 10px;
          cursor: pointer; }
        button:hover { border-color: var(--accent); }
        #graph-viewport { position: relative; height: 520px; overflow: hidden; border: 1px solid var(--line);
          border-radius: 6px; background: #fff; cursor: grab; touch-action: none; }
        #graph-viewport.dragging { cursor: grabbing; }
        #graph-image { position: absolute; left: 0; top: 0; transform-origin: 0 0; max-width: none;
          user-select: none; -webkit-user-drag: none; }
        #graph-overlay { position: absolute; left: 0; top: 0; transform-origin: 0 0; pointer-events: none; }
        .node-box { position: absolute; box-sizing: border-box; border-radius: 8px; }
        .node-box.highlighted { border: 4px solid #ff9800; box-shadow: 0 0 0 4px rgba(255, 152, 0, 0.35); }
        .node-box.gone { background: rgba(246, 247, 250, 0.92); }
        .node-box.picked { border: 4px solid var(--accent); }
        .node-panel { margin-top: 8px; padding: 8px 12px; border: 1px solid var(--line); border-radius: 6px; }
        .node-panel > a { display: block; }
        .node-panel .node-detail { margin-top: 6px; border-top: 1px solid var(--line); padding-top: 6px; }
        .node-panel p { margin: 2px 0; overflow-wrap: anywhere; }
        .node-panel ul, .node-panel ol { margin: 2px 0; padding-left: 20px; }
        .node-box.match { background: rgba(255, 235, 59, 0.35); }
        table.events tr.current td { background: #fff3cd; }
        table.events tbody tr[id] { cursor: pointer; }
        .event-chain { margin: 0 0 8px; padding: 8px 12px 8px 32px; border: 1px solid var(--line); border-radius: 6px;
          font-size: 13px; overflow-wrap: anywhere; }
        .graph-time { display: flex; gap: 10px; align-items: center; margin-top: 8px; }
        .graph-time input { flex: 1; }
        .finding .cause { margin: 4px 0; padding-left: 20px; font-size: 13px; overflow-wrap: anywhere; }
        .process-graph { margin: 0 0 16px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
        .process-graph figcaption { font-weight: 600; padding: 6px 10px; border-bottom: 1px solid var(--line); }
        .process-graph img { display: block; max-width: 100%; height: auto; }
        .finding { cursor: pointer; }
        #graph-viewport:focus-visible, .finding:focus-visible { outline: 3px solid var(--accent); }
        @media (max-width: 700px) {
          nav { padding: 0 12px; gap: 12px; overflow-x: auto; }
          main { padding: 12px 8px 32px; }
          section { padding: 12px; }
          #graph-viewport { height: 360px; }
          input[type=search] { min-width: 0; width: 100%; }
          .timeline td.name { width: 96px; }
        }
        .finding.selected { outline: 3px solid #ff9800; outline-offset: 2px; }
        .timeline { width: 100%; border-collapse: collapse; }
        .timeline td { padding: 3px 8px 3px 0; border-bottom: 1px solid var(--line); vertical-align: middle; }
        .timeline .name { width: 240px; overflow-wrap: anywhere; }
        .timeline .name small { color: var(--muted); display: block; }
        .timeline .lane { width: auto; }
        .timeline svg { display: block; width: 100%; height: 30px; }
        .lane-line { stroke: #c5ccd6; stroke-width: 1; }
        .marble { fill: #5b8def; stroke: #1f4fb0; stroke-width: 1; }
        .marble.bucket { fill: #f2a93b; stroke: #9a5b00; }
        .marble-count { font: 10px system-ui, sans-serif; fill: #fff; text-anchor: middle; dominant-baseline: central;
          pointer-events: none; }
        .axis text { font: 10px system-ui, sans-serif; fill: var(--muted); }
        .axis line { stroke: var(--line); }
        .controls { display: flex; gap: 8px; margin-bottom: 8px; align-items: center; flex-wrap: wrap; }
        input[type=search], select { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 5px; }
        input[type=search] { min-width: 280px; }
        .table-wrap { max-height: 560px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
        table.events { width: 100%; border-collapse: collapse; }
        table.events th { position: sticky; top: 0; background: var(--wash); text-align: left; font-weight: 600;
          border-bottom: 1px solid var(--line); padding: 5px 8px; }
        table.events td { padding: 3px 8px; border-bottom: 1px solid #eef1f5; vertical-align: top; }
        table.events td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        table.events td.desc { overflow-wrap: anywhere; }
        table.events tr.gap td { text-align: center; color: var(--muted); background: var(--wash); font-style: italic; }
        footer { color: var(--muted); font-size: 12px; text-align: center; padding: 12px; }

        """

    static let script = """

        (function () {
          "use strict";
          var viewport = document.getElementById("graph-viewport");
          var image = document.getElementById("graph-image");
          var overlay = document.getElementById("graph-overlay");
          var boxes = overlay ? Array.prototype.slice.call(overlay.querySelectorAll(".node-box")) : [];
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
            if (image.complete) { reset(); } else { image.addEventListener("load", reset); }
            // A click (not a drag) on an Output's node lists its findings.
            viewport.addEventListener("click", function (event) {
              if (moved) { return; }
              var hit = null;
              boxes.forEach(function (box) {
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
              boxes.forEach(function (box) {
                var text = nodeTexts[box.getAttribute("data-node")];
                var match = Boolean(query) && text !== undefined && text.indexOf(query) >= 0;
                box.classList.toggle("match", match);
                if (match) { nodes += 1; }
              });
              if (overlay) { overlay.setAttribute("data-matched", String(nodes)); }
              findingStatus.textContent = shown + " of " + articles.length + " findings shown" +
                (query && boxes.length ? ", " + nodes + " node" + (nodes === 1 ? "" : "s") + " outlined" : "");
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

          // Selecting a finding outlines its Outputs' nodes (a collapsed group by its first member).
          var findings = Array.prototype.slice.call(document.querySelectorAll("article.finding[data-outputs]"));
          var select = function (article) {
            var wanted = {};
            findings.forEach(function (other) { other.classList.toggle("selected", other === article); });
            (article ? article.getAttribute("data-outputs").split(" ") : []).forEach(function (id) {
              if (id) { wanted["o" + id] = true; wanted["g" + id] = true; }
            });
            var count = 0;
            boxes.forEach(function (box) {
              var on = wanted[box.getAttribute("data-node")] === true;
              box.classList.toggle("highlighted", on);
              if (on) { count += 1; }
            });
            if (overlay) { overlay.setAttribute("data-highlighted", String(count)); }
            if (article) { showEvent(Number(article.getAttribute("data-event") || 0)); }
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
              if (viewport && boxes.length) { viewport.scrollIntoView({ block: "nearest" }); }
            });
            article.addEventListener("keydown", function (event) {
              if (event.key === "Enter" || event.key === " ") { event.preventDefault(); select(article); }
            });
          });
          // The time slider: an Output's node is covered while it was not alive after the chosen event
          // (created at or before it, released after it), as `bind-trace graph --at` would leave it out.
          var slider = document.getElementById("graph-time");
          var sliderLabel = document.getElementById("graph-time-label");
          var showAt = function (at) {
            if (!slider) { return; }
            slider.value = String(at);
            var gone = 0;
            boxes.forEach(function (box) {
              var life = (box.getAttribute("data-life") || "").split(" ");
              if (life.length < 2) { return; }
              var created = Number(life[0]), released = life[1] === "" ? Infinity : Number(life[1]);
              var alive = created <= at && released > at;
              box.classList.toggle("gone", !alive);
              if (!alive) { gone += 1; }
            });
            if (overlay) { overlay.setAttribute("data-gone", String(gone)); }
            if (sliderLabel) {
              sliderLabel.textContent = "#" + at + (String(at) === slider.max ? " (the end)" : "");
            }
          };
          if (slider) { slider.addEventListener("input", function () { showAt(Number(slider.value)); }); }
          var fromAddress = function () {
            var match = /^#finding-([0-9]+)$/.exec(window.location.hash);
            if (match) { select(document.getElementById("finding-" + match[1])); }
            var at = /^#at-([0-9]+)$/.exec(window.location.hash);
            if (at && slider) { showAt(Math.min(Number(at[1]), Number(slider.max))); }
            var event = /^#event-([0-9]+)$/.exec(window.location.hash);
            if (event) { showEvent(Number(event[1])); }
            var node = /^#node-([og][0-9]+)$/.exec(window.location.hash);
            if (node) {
              boxes.forEach(function (box) { if (box.getAttribute("data-node") === node[1]) { pick(box); } });
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

        """
}
