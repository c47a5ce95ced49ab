/* Cutpoint dashboard behaviour: theme, popovers, tree keyboard navigation, live updates over the
   htmx ws extension (connection dot, reconnect, pause/follow), and plotly charts. No framework. */
(function () {
  "use strict";
  var doc = document;
  var root = doc.documentElement;
  var plotlySrc = (doc.currentScript && doc.currentScript.dataset.plotlySrc) || "";

  function $(sel, el) { return (el || doc).querySelector(sel); }
  function $all(sel, el) { return Array.prototype.slice.call((el || doc).querySelectorAll(sel)); }

  /* ---- theme ---------------------------------------------------------------------------- */
  function effectiveTheme() {
    if (root.dataset.theme) return root.dataset.theme;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  doc.addEventListener("click", function (e) {
    var t = e.target.closest && e.target.closest("#theme-toggle");
    if (!t) return;
    var next = effectiveTheme() === "dark" ? "light" : "dark";
    root.dataset.theme = next;
    try { localStorage.setItem("cp-theme", next); } catch (err) { /* private mode */ }
    restyleCharts();
  });

  /* ---- flash messages, popovers, dismiss buttons ---------------------------------------- */
  doc.addEventListener("click", function (e) {
    var close = e.target.closest && e.target.closest(".flash-close");
    if (close) { close.parentElement.remove(); return; }
    var dismiss = e.target.closest && e.target.closest("[data-dismiss]");
    if (dismiss) {
      var el = doc.getElementById(dismiss.dataset.dismiss);
      if (el) { el.innerHTML = ""; el.className = ""; }
      return;
    }
    $all("details.popover[open]").forEach(function (d) { if (!d.contains(e.target)) d.removeAttribute("open"); });
  });
  // A popover hangs from its button's right edge; when the buttons wrap under a long title the
  // button sits at the left and the body would open past the window's edge (issue 32). Shift the
  // open body back inside the window, with a small margin.
  function fitPopover(d) {
    var body = $(".popover-body", d);
    if (!body) return;
    body.style.transform = "";
    if (!d.open) return;
    var r = body.getBoundingClientRect();
    var margin = 8;
    var width = doc.documentElement.clientWidth;
    var dx = 0;
    if (r.left < margin) dx = margin - r.left;
    else if (r.right > width - margin) dx = Math.max(margin - r.left, width - margin - r.right);
    if (dx) body.style.transform = "translateX(" + Math.round(dx) + "px)";
  }
  doc.addEventListener("toggle", function (e) {
    if (e.target.matches && e.target.matches("details.popover")) fitPopover(e.target);
  }, true);
  window.addEventListener("resize", function () { $all("details.popover[open]").forEach(fitPopover); });
  doc.addEventListener("keydown", function (e) {
    if (e.key === "Escape") $all("details.popover[open]").forEach(function (d) { d.removeAttribute("open"); });
  });
  // An action refused with 409 Conflict (a prompt while the agent is still answering) carries its
  // notice in the body: show it like any other outcome instead of dropping it as an error.
  doc.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr;
    if (xhr && xhr.status === 409 && xhr.getResponseHeader("X-Cutpoint-Outcome") === "refused") {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  doc.addEventListener("htmx:afterRequest", function (e) {
    var form = e.target.closest && e.target.closest("form");
    if (!form || !e.detail.successful) return;
    if (form.hasAttribute("data-reset")) form.reset();
    if (form.hasAttribute("data-close-popover")) {
      var d = form.closest("details.popover");
      if (d) d.removeAttribute("open");
    }
  });
  function autoDismiss() {
    $all(".flash-success:not([data-timer])").forEach(function (f) {
      f.setAttribute("data-timer", "1");
      setTimeout(function () { f.remove(); }, 9000);
    });
  }

  /* ---- tabs ----------------------------------------------------------------------------- */
  doc.addEventListener("click", function (e) {
    var tab = e.target.closest && e.target.closest("[role=tab]");
    if (!tab) return;
    $all("[role=tab]", tab.parentElement).forEach(function (t) { t.setAttribute("aria-selected", t === tab ? "true" : "false"); });
  });

  /* ---- tree: keyboard, collapse/expand, highlight -------------------------------------- */
  function visibleItems(tree) {
    return $all(".tn-row, .tb > details > summary, .tree-more > button", tree).filter(function (el) {
      return el.offsetParent !== null;
    });
  }
  doc.addEventListener("keydown", function (e) {
    var tree = e.target.closest && e.target.closest("#tree");
    if (!tree) return;
    var items = visibleItems(tree);
    var i = items.indexOf(e.target);
    if (i < 0) return;
    var next = null;
    if (e.key === "ArrowDown") next = items[i + 1];
    else if (e.key === "ArrowUp") next = items[i - 1];
    else if (e.key === "Home") next = items[0];
    else if (e.key === "End") next = items[items.length - 1];
    else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      var det = e.target.tagName === "SUMMARY" ? e.target.parentElement : null;
      if (!det) {
        var li = e.target.closest("li.tn");
        var br = li && li.querySelector(":scope > .branches > .tb > details");
        if (br) det = br;
      }
      if (det) {
        if (e.key === "ArrowRight" && !det.open) det.open = true;
        else if (e.key === "ArrowLeft" && det.open) det.open = false;
        e.preventDefault();
      }
      return;
    } else return;
    if (next) {
      e.preventDefault();
      items.forEach(function (it) { if (it.classList.contains("tn-row")) it.tabIndex = -1; });
      next.tabIndex = 0;
      next.focus();
    }
  });
  doc.addEventListener("click", function (e) {
    var row = e.target.closest && e.target.closest(".tn-row");
    if (row) {
      $all(".tn.is-selected").forEach(function (x) { x.classList.remove("is-selected"); });
      row.parentElement.classList.add("is-selected");
    }
    if (e.target.closest && e.target.closest("#tree-collapse")) $all("#tree details[open]").forEach(function (d) { d.open = false; });
    if (e.target.closest && e.target.closest("#tree-expand")) $all("#tree .tb > details").forEach(function (d) { if (!d.hasAttribute("hx-get") || d.dataset.loaded) d.open = true; });
  });
  // A long tree opens scrolled to the active node, not to the root (issue 32). Only the tree's own
  // box scrolls, and only when the active node changed since the last time, so a live refresh of
  // the same tree does not take the reader's scroll position away.
  var revealedKey = null;
  function revealActive() {
    var box = $("#tree-scroll");
    var el = box && $("#tree .tn.is-active > .tn-row", box);
    if (!el) return;
    var key = el.parentElement.dataset.key || "";
    if (key === revealedKey) return;
    revealedKey = key;
    var r = el.getBoundingClientRect();
    var b = box.getBoundingClientRect();
    if (r.top >= b.top && r.bottom <= Math.min(b.bottom, window.innerHeight)) return;
    box.scrollTop += r.top - b.top - (box.clientHeight - r.height) / 2;
    // The newest node sits at the box's end, which may be below the window: then the page
    // scrolls as little as it takes to show it.
    el.scrollIntoView({ block: "nearest" });
  }
  doc.addEventListener("input", function (e) {
    if (e.target.id !== "tree-q") return;
    var q = e.target.value.trim().toLowerCase();
    $all("#tree .tn").forEach(function (li) {
      var text = (li.querySelector(":scope > .tn-row") || li).textContent.toLowerCase();
      li.classList.toggle("hit", q.length > 1 && (text.indexOf(q) >= 0 || (li.dataset.key || "").indexOf(q) === 0));
    });
  });

  /* ---- live ----------------------------------------------------------------------------- */
  var live = { paused: false, missed: 0, socket: null, opened: 0, retry: 0 };

  // Reconnect delays: the ws extension's own "full-jitter" grows to a random wait of up to 64 s,
  // so a page could stay dark long after the server was back. Here: 0.5 s doubling, at most 4 s,
  // with jitter (docs/architecture.md, "Live updates"). A Redis outage no longer closes sockets
  // at all (the server resubscribes them and sends a resync).
  function reconnectDelay(retry) {
    var base = Math.min(4000, 500 * Math.pow(2, Math.min(retry, 4)));
    return base / 2 + Math.random() * base / 2;
  }
  if (window.htmx) htmx.config.wsReconnectDelay = reconnectDelay;

  function setConn(state, text) {
    var c = $("#conn");
    if (!c) return;
    c.dataset.state = state;
    $(".conn-text", c).textContent = text;
  }
  // `what` names things to re-fetch ("tree", panel ids, "run"): the server decides from the
  // panel registry (sessions_app/presenters/panels.py); each element listens for its own
  // `cp:refresh-<name>` and debounces with its hx-trigger's delay.
  function refresh(what) {
    (what || "").split(/\s+/).forEach(function (w) {
      if (w) htmx.trigger(doc.body, "cp:refresh-" + w);
    });
  }
  // A reconnect or a resume: the tree and every panel the page names, and every live view on the
  // page (the node pane) that the list leaves out.
  function refreshAll() {
    var el = $("#live");
    if (!el) return;
    var names = (el.dataset.refreshAll || "").split(/\s+/).filter(Boolean);
    $all("[data-live-view]").forEach(function (v) {
      if (names.indexOf(v.dataset.liveView) < 0) names.push(v.dataset.liveView);
    });
    refresh(names.join(" "));
  }
  // "Showing N of M nodes": N is the rows the page holds, which grows as "show more", folded
  // branches and live rows load; M comes from the server (and from each live row's message).
  function updateTreeCount() {
    var shown = $("#tree-count > strong:nth-of-type(1)");
    if (!shown) return;
    var n = $all("#tree .tn").length;
    shown.textContent = n.toLocaleString("en-US");
    var total = $("#tree-count > strong:nth-of-type(2)");
    var rest = $("#tree-rest");
    var m = total ? parseInt(total.textContent.replace(/[^0-9]/g, ""), 10) : NaN;
    if (rest && !isNaN(m)) rest.hidden = n >= m;
  }
  // A split turn's prefix streams into its own box: make sure the box shows once text arrives,
  // even when the page was drawn before the task knew it would split.
  function revealStreams() {
    $all("#live-task .stream-box.is-empty").forEach(function (box) {
      var pre = $("pre.stream", box);
      if (pre && pre.textContent.length) box.classList.remove("is-empty");
    });
  }
  function markActive(key) {
    if (!key) return;
    $all("#tree .tn.is-active").forEach(function (li) {
      if (li.dataset.key !== key) { li.classList.remove("is-active"); li.setAttribute("aria-selected", "false"); }
    });
    $all("#tree .tn").forEach(function (li) {
      if (li.dataset.key === key) { li.classList.add("is-active", "on-path"); li.setAttribute("aria-selected", "true"); }
    });
    var tree = $("#tree");
    if (tree) tree.dataset.active = key;
  }
  function follow(newId) {
    if (live.paused) return;
    if (newId) {
      var el = doc.getElementById(newId);
      var box = $("#tree-scroll");
      if (el && box) {
        el.classList.add("is-new");
        box.scrollTop = el.offsetTop - box.clientHeight / 2;
      }
    }
    $all("pre.stream").forEach(function (p) { p.scrollTop = p.scrollHeight; });
  }

  // The live-update kinds this script acts on, named by the page (`data-live-kinds`, from the
  // vocabulary's LiveKind): `fresh_stream` (a compaction attempt starts), `snapshot` and `resync`.
  function liveKinds() {
    var el = $("[data-live-kinds]");
    try { return el ? JSON.parse(el.dataset.liveKinds) : {}; } catch (err) { return {}; }
  }

  // A compaction attempt starts (`fresh_stream`, published before its first delta): whatever
  // the stream boxes hold came from an earlier attempt of the task (a retry after its worker
  // died), so the new attempt's text starts on a clean box.
  function freshStream() {
    var box = $("#live-task");
    if (!box) return;
    $all("pre.stream", box).forEach(function (p) { p.textContent = ""; p.dataset.attempt = box.dataset.attempt || ""; });
  }

  doc.addEventListener("htmx:wsConnecting", function () { setConn("connecting", live.opened ? "reconnecting…" : "connecting…"); });
  doc.addEventListener("htmx:wsOpen", function (e) {
    live.socket = e.detail.socketWrapper;
    live.retry = 0;
    live.reconnected = live.opened > 0;
    live.opened += 1;
    setConn("open", "live");
  });
  doc.addEventListener("htmx:wsClose", function (e) {
    var code = e.detail.event && e.detail.event.code;
    if (code === 4401 || code === 4403) { setConn("closed", "signed out — reload to log in"); return; }
    if (code === 4404) { setConn("closed", "session not found"); return; }
    setConn("closed", "disconnected — retrying");
    // The extension retries abnormal closures itself; retry the rest (server restarts) here.
    if ([1006, 1011, 1012, 1013].indexOf(code) < 0 && e.detail.socketWrapper) {
      var wrapper = e.detail.socketWrapper;
      live.retry += 1;
      setTimeout(function () { if ($("#live")) wrapper.reconnect(); }, reconnectDelay(live.retry));
    }
  });
  doc.addEventListener("htmx:wsBeforeMessage", function (e) {
    if (!live.paused) return;
    var msg = String(e.detail.message || "");
    var snapshot = liveKinds().snapshot;
    if (snapshot && msg.indexOf('data-kind="' + snapshot + '"') >= 0) return;  // explicit snapshot requests always apply
    e.preventDefault();
    live.missed += 1;
    var pc = $("#paused-count");
    if (pc) { pc.hidden = false; pc.textContent = live.missed + " update" + (live.missed === 1 ? "" : "s") + " waiting"; }
  });
  doc.addEventListener("htmx:wsAfterMessage", function () {
    revealStreams();
    updateTreeCount();
    var sig = $("#live-signal");
    if (!sig) return;
    var kind = sig.dataset.kind;
    sig.dataset.kind = "";
    var kinds = liveKinds();
    if (kind && kind === kinds.fresh_stream) freshStream();
    if (kind && kind === kinds.snapshot) {
      if (live.reconnected) { live.reconnected = false; refreshAll(); }
    } else if (kind && kind === kinds.resync) {
      // The server's channel layer lost messages (Redis was away): every panel may be stale.
      refreshAll();
      if (sig.dataset.refresh) refresh(sig.dataset.refresh);
    } else if (kind) {
      if (sig.dataset.refresh) refresh(sig.dataset.refresh);
      if (sig.dataset.active) markActive(sig.dataset.active);
    }
    follow(sig.dataset.new);
    sig.dataset.new = "";
  });
  doc.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("#follow-toggle");
    if (!b) return;
    live.paused = !live.paused;
    b.setAttribute("aria-pressed", live.paused ? "false" : "true");
    b.textContent = live.paused ? "❚❚ Paused" : "● Following";
    var pc = $("#paused-count");
    if (!live.paused) {
      if (pc) pc.hidden = true;
      if (live.missed && live.socket) {
        live.socket.send(JSON.stringify({ action: liveKinds().snapshot }));
        refreshAll();
      }
      live.missed = 0;
    }
  });

  /* ---- cut-point view: clicking a tick picks it as the first node to keep ---------------- */
  doc.addEventListener("click", function (e) {
    var hit = e.target.closest && e.target.closest(".tick-hit");
    var input = $("#cut-pick");
    if (!hit || !input) return;
    $all(".tick-hit[fill-opacity]").forEach(function (r) { r.setAttribute("fill", "transparent"); r.removeAttribute("fill-opacity"); });
    hit.setAttribute("fill", "currentColor");
    hit.setAttribute("fill-opacity", "0.35");
    input.value = hit.getAttribute("data-key") || "";
    input.focus();
  });

  /* ---- charts --------------------------------------------------------------------------- */
  var plotlyLoading = null;
  function loadPlotly() {
    if (window.Plotly) return Promise.resolve();
    if (!plotlyLoading) {
      plotlyLoading = new Promise(function (resolve, reject) {
        var s = doc.createElement("script");
        s.src = plotlySrc;
        s.onload = resolve;
        s.onerror = reject;
        doc.head.appendChild(s);
      });
    }
    return plotlyLoading;
  }
  function chartColors() {
    var cs = getComputedStyle(doc.body);
    return { fg: cs.getPropertyValue("--fg").trim() || "#222", grid: cs.getPropertyValue("--line").trim() || "#ddd" };
  }
  function themed(layout) {
    var c = chartColors();
    layout.font = Object.assign({}, layout.font || {}, { color: c.fg, family: "system-ui, sans-serif", size: 12 });
    ["xaxis", "yaxis"].forEach(function (ax) {
      layout[ax] = Object.assign({}, layout[ax] || {}, { gridcolor: c.grid, zerolinecolor: c.grid, linecolor: c.grid });
    });
    return layout;
  }
  function renderCharts() {
    var els = $all("[data-plotly]:not([data-rendered])");
    if (!els.length) return;
    loadPlotly().then(function () {
      els.forEach(function (el) {
        var src = doc.getElementById(el.dataset.plotly);
        if (!src) return;
        var fig = JSON.parse(src.textContent);
        el.dataset.rendered = "1";
        window.Plotly.newPlot(el, fig.data, themed(fig.layout), { responsive: true, displaylogo: false });
      });
    });
  }
  function restyleCharts() {
    if (!window.Plotly) return;
    $all("[data-plotly][data-rendered]").forEach(function (el) {
      var c = chartColors();
      window.Plotly.relayout(el, { "font.color": c.fg, "xaxis.gridcolor": c.grid, "yaxis.gridcolor": c.grid });
    });
  }

  function onLoad() { renderCharts(); autoDismiss(); updateTreeCount(); revealActive(); }
  doc.addEventListener("DOMContentLoaded", onLoad);
  doc.addEventListener("htmx:afterSettle", onLoad);
  doc.addEventListener("htmx:afterSwap", function (e) {
    var d = e.target.closest && e.target.closest(".tb > details");
    if (d) d.dataset.loaded = "1";
  });
})();
