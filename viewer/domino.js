// One domino face, drawn with its pips as every page of texas42-log draws it: the
// viewer, the board and the table (each page inlines this file, allowed by its hash).
window.texas42Domino = (function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    return e;
  }
  var PIPS = {
    0: [], 1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[27, 27], [50, 50], [73, 73]],
    4: [[27, 27], [73, 27], [27, 73], [73, 73]], 5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]],
    6: [[27, 24], [73, 24], [27, 50], [73, 50], [27, 76], [73, 76]]
  };

  // A domino face "[a|b]": standing (the low half on top) or lying. Its size is the
  // --u of where it is put (CSS); pips are 20 units of 100 across.
  function domino(name, lying) {
    var m = /^\[([0-6])\|([0-6])\]$/.exec(name);
    var w = lying ? 200 : 100, h = lying ? 100 : 200;
    var s = svgEl("svg", { "class": "domino " + (lying ? "h" : "v"), viewBox: "0 0 " + w + " " + h, role: "img" });
    s.setAttribute("data-tile", name);
    var t = svgEl("title", {});
    t.textContent = name;
    s.appendChild(t);
    s.appendChild(svgEl("rect", { "class": "body", x: 3, y: 3, width: w - 6, height: h - 6, rx: 14 }));
    s.appendChild(lying ? svgEl("line", { x1: 100, y1: 10, x2: 100, y2: 90 }) : svgEl("line", { x1: 10, y1: 100, x2: 90, y2: 100 }));
    [m[1], m[2]].forEach(function (n, half) {
      PIPS[n].forEach(function (p) {
        var cx = lying ? half * 100 + p[0] : p[0], cy = lying ? p[1] : half * 100 + p[1];
        s.appendChild(svgEl("circle", { cx: cx, cy: cy, r: 10 }));
      });
    });
    return s;
  }
  // The back of a tile: nothing of its face.
  function back(lying) {
    var w = lying ? 200 : 100, h = lying ? 100 : 200;
    var s = svgEl("svg", { "class": "domino back " + (lying ? "h" : "v"), viewBox: "0 0 " + w + " " + h, "aria-hidden": "true" });
    s.appendChild(svgEl("rect", { "class": "body", x: 3, y: 3, width: w - 6, height: h - 6, rx: 14 }));
    return s;
  }
  return { domino: domino, back: back };
})();
