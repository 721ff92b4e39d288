// The timeline's controls and script (report_timeline.hpp). The script moves the marks the
// figure drew, each by the times it carries (data-t0/data-t1/data-t), so a view is only two
// numbers: the part of the axis shown, as positions 0..1 of the per-phase or linear axis.
#include <map>

#include "report_svg.hpp"
#include "report_timeline.hpp"

namespace tsunagi::runner::report {
namespace {

constexpr const char* kScript = R"(
(function () {
  var figure = document.getElementById('timeline-svg');
  if (!figure) return;
  var data = figure.querySelector('desc.timeline-data').dataset;
  var plot = figure.querySelector('svg.plot');
  var axisGroup = figure.querySelector('g.axis');
  var left = +data.left, width = +data.width, end = +data.end;
  var breaks = data.breaks.split(' ').map(function (pair) {
    var p = pair.split(',');
    return [+p[0], +p[1] / 1e6];
  });
  var view = { lo: 0, hi: 1, linear: false };
  function at(t) {
    if (view.linear) return Math.min(Math.max(t / end, 0), 1);
    if (t <= 0) return 0;
    for (var i = 1; i < breaks.length; i++) {
      if (t <= breaks[i][0]) {
        var a = breaks[i - 1], b = breaks[i];
        return a[1] + (b[1] - a[1]) * (t - a[0]) / (b[0] - a[0]);
      }
    }
    return 1;
  }
  function timeAt(u) {
    if (view.linear) return u * end;
    if (u <= 0) return 0;
    for (var i = 1; i < breaks.length; i++) {
      if (u <= breaks[i][1]) {
        var a = breaks[i - 1], b = breaks[i];
        return a[0] + (b[0] - a[0]) * (u - a[1]) / (b[1] - a[1]);
      }
    }
    return end;
  }
  function x(t) { return width * (at(t) - view.lo) / (view.hi - view.lo); }
  function timeText(ns) {
    var a = Math.abs(ns);
    if (a >= 1e9) return (ns / 1e9).toPrecision(3) + ' s';
    if (a >= 1e6) return (ns / 1e6).toPrecision(3) + ' ms';
    if (a >= 1e3) return (ns / 1e3).toPrecision(3) + ' us';
    return Math.round(ns) + ' ns';
  }
  var spans = plot.querySelectorAll('[data-t0]');
  var marks = plot.querySelectorAll('line[data-t]');
  var arrows = plot.querySelectorAll('path[data-t]');
  var messages = plot.querySelectorAll('path.message');
  var SVG = 'http://www.w3.org/2000/svg';
  function element(name, attrs, text) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text) e.textContent = text;
    return e;
  }
  function drawAxis() {
    var y = +axisGroup.querySelector('line').getAttribute('y1');
    while (axisGroup.firstChild) axisGroup.removeChild(axisGroup.firstChild);
    axisGroup.appendChild(element('line', { x1: left, y1: y, x2: left + width, y2: y,
                                            stroke: '#444444' }));
    for (var i = 0; i <= 6; i++) {
      var px = left + width * i / 6;
      axisGroup.appendChild(element('line', { x1: px, y1: y, x2: px, y2: y + 4,
                                              stroke: '#444444' }));
      axisGroup.appendChild(element('text', { x: px, y: y + 15, 'text-anchor': 'middle' },
                                    timeText(timeAt(view.lo + (view.hi - view.lo) * i / 6))));
    }
  }
  function draw() {
    spans.forEach(function (r) {
      var a = x(+r.dataset.t0), b = x(+r.dataset.t1);
      r.setAttribute('x', a);
      r.setAttribute('width', Math.max(0.5, b - a));
    });
    marks.forEach(function (m) {
      var v = x(+m.dataset.t);
      m.setAttribute('x1', v);
      m.setAttribute('x2', v);
    });
    arrows.forEach(function (p) {
      var v = x(+p.dataset.t), y1 = +p.dataset.y1, y2 = +p.dataset.y2;
      var head = y2 > y1 ? -5 : 5;
      p.setAttribute('d', 'M' + v + ' ' + y1 + 'L' + v + ' ' + y2 + 'M' + (v - 3) + ' ' +
                     (y2 + head) + 'L' + v + ' ' + y2 + 'L' + (v + 3) + ' ' + (y2 + head));
    });
    messages.forEach(function (p) {
      var x1 = x(+p.dataset.sent), x2 = x(+p.dataset.received);
      var y1 = +p.dataset.y1, y2 = +p.dataset.y2;
      var n = Math.max(Math.hypot(x2 - x1, y2 - y1), 1e-9), ux = (x2 - x1) / n, uy = (y2 - y1) / n;
      p.setAttribute('d', 'M' + x1 + ' ' + y1 + 'L' + x2 + ' ' + y2 + 'M' +
                     (x2 - 5 * ux - 2.5 * uy) + ' ' + (y2 - 5 * uy + 2.5 * ux) + 'L' + x2 + ' ' +
                     y2 + 'L' + (x2 - 5 * ux + 2.5 * uy) + ' ' + (y2 - 5 * uy - 2.5 * ux));
    });
    drawAxis();
  }
  var pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(function () { pending = false; draw(); });
  }
  // The wheel and dragging redraw once a frame; a button at once.
  function show(lo, hi, now) {
    var span = Math.max(hi - lo, 1e-7);
    lo = Math.max(0, Math.min(lo, 1 - span));
    view.lo = lo;
    view.hi = Math.min(1, lo + span);
    // The times shown, at once (the marks follow at the next frame): what a test reads.
    figure.dataset.viewT0 = Math.round(timeAt(view.lo));
    figure.dataset.viewT1 = Math.round(timeAt(view.hi));
    if (now) draw(); else redraw();
  }
  // Position 0..1 on the shown axis of a mouse event over the plot.
  function position(event) {
    var box = plot.getBoundingClientRect();
    return (event.clientX - box.left) / box.width;
  }
  plot.addEventListener('wheel', function (event) {
    event.preventDefault();
    var u = view.lo + (view.hi - view.lo) * position(event);
    var f = event.deltaY < 0 ? 0.8 : 1.25;
    show(u - (u - view.lo) * f, u + (view.hi - u) * f);
  }, { passive: false });
  var drag = null;
  plot.addEventListener('mousedown', function (event) {
    drag = { p: position(event), lo: view.lo, hi: view.hi };
    event.preventDefault();
  });
  window.addEventListener('mousemove', function (event) {
    if (!drag) return;
    var d = (position(event) - drag.p) * (drag.hi - drag.lo);
    show(drag.lo - d, drag.hi - d);
  });
  window.addEventListener('mouseup', function () { drag = null; });
  plot.addEventListener('dblclick', function () { show(0, 1); });
  document.querySelectorAll('#timeline-controls button').forEach(function (button) {
    button.addEventListener('click', function () {
      var a = at(+button.dataset.t0), b = at(+button.dataset.t1), pad = (b - a) * 0.03;
      show(a - pad, b + pad, true);
    });
  });
  var linear = document.getElementById('timeline-linear');
  linear.addEventListener('change', function () {
    var t0 = timeAt(view.lo), t1 = timeAt(view.hi);
    view.linear = linear.checked;
    show(at(t0), at(t1), true);
  });
  figure.dataset.viewT0 = 0;
  figure.dataset.viewT1 = Math.round(timeAt(1));
  figure.dataset.zoomable = 'yes';
})();
)";

// When each phase occurs anywhere: from its first start to its last end.
std::map<int, std::pair<std::int64_t, std::int64_t>> phase_windows(const Timeline& timeline) {
  std::map<int, std::pair<std::int64_t, std::int64_t>> windows;
  for (const Row& row : timeline.rows)
    for (const Span& span : row.spans) {
      auto [it, fresh] = windows.try_emplace(span.phase, span.t0, span.t1);
      it->second.first = std::min(it->second.first, span.t0);
      it->second.second = std::max(it->second.second, span.t1);
    }
  return windows;
}

std::string button(const std::string& text, std::int64_t t0, std::int64_t t1,
                   const std::string& colour) {
  return "<button type=\"button\"" + attr("data-t0", std::to_string(t0)) +
         attr("data-t1", std::to_string(t1)) + attr("style", "border-left: 10px solid " + colour) +
         attr("title", "show " + time_text(t0) + " to " + time_text(t1)) + ">" + escape(text) +
         "</button>\n";
}

}  // namespace

std::string timeline_controls(const Timeline& timeline, const PhaseAxis& axis) {
  std::string html = "<div class=\"controls\" id=\"timeline-controls\">\n" +
                     button("whole run", 0, axis.end_ns(), "#ffffff");
  for (const auto& [phase, window] : phase_windows(timeline)) {
    const Phase& p = phases()[static_cast<std::size_t>(phase)];
    html += button(p.name, window.first, window.second, p.colour);
  }
  html +=
      "<label><input type=\"checkbox\" id=\"timeline-linear\"> linear time axis</label>\n"
      "<span class=\"note\">Mouse wheel over the timeline: zoom; drag: pan; double-click: the "
      "whole run. By default every phase gets a readable width (the axis is stretched between "
      "phase boundaries; its labels are true times).</span>\n</div>\n";
  return html;
}

const char* timeline_script() {
  return kScript;
}

}  // namespace tsunagi::runner::report
