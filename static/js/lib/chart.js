// chart.js — a rating's history as a small line chart in inline SVG (no library): one
// point per rated match, the first and last ratings labelled, the highest and lowest on
// the axis. The numbers come from the server; this only draws them.

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  return el;
}

/**
 * @param {number[]} values ratings, oldest first (the rating before the first match first)
 * @param {string} label what the chart shows, for screen readers
 */
export function lineChart(values, label) {
  const width = 320;
  const height = 120;
  const pad = 28;
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 1);
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(values.length - 1, 1);
  const y = (v) => height - pad + 8 - ((v - low) * (height - 2 * pad)) / span;
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    class: "chart rating-chart",
    "aria-label": label,
  });
  root.append(
    svg("line", {
      x1: pad,
      y1: height - pad + 8,
      x2: width - pad,
      y2: height - pad + 8,
      class: "axis",
    }),
    svg("line", { x1: pad, y1: 8, x2: pad, y2: height - pad + 8, class: "axis" }),
  );
  for (const [value, at] of [
    [high, y(high)],
    [low, y(low)],
  ]) {
    const text = svg("text", { x: pad - 4, y: at + 4, "text-anchor": "end", class: "axis-label" });
    text.textContent = String(value);
    root.append(text);
  }
  root.append(
    svg("polyline", {
      points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "),
      class: "line",
      fill: "none",
    }),
  );
  values.forEach((v, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(v), r: 3, class: "dot" });
    const title = svg("title");
    title.textContent = i === 0 ? `Start: ${v}` : `After match ${i}: ${v}`;
    dot.append(title);
    root.append(dot);
  });
  return root;
}
