// chart.js — small line charts in inline SVG (no library). `lineChart`: a rating's history, one
// point per rated match, the first and last ratings labelled, the highest and lowest on
// the axis; `linesChart`: several series over the same steps (the review's expected scores).
// The numbers come from the server; this only draws them.

import { number, t } from "./i18n.js";

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
    text.textContent = number(value);
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
    title.textContent =
      i === 0
        ? t("Start: {rating}", { rating: number(v) })
        : t("After match {number}: {rating}", { number: i, rating: number(v) });
    dot.append(title);
    root.append(dot);
  });
  return root;
}

/**
 * Several lines over the same steps, each in its own colour, on one axis.
 * @param {number[][]} lines one array of values per line, all of the same length
 * @param {{label: string, colors: string[], titles?: string[]}} options `label` for screen
 *   readers; `titles[i]` names the step i for the dot's tooltip
 */
export function linesChart(lines, { label, colors, titles = [] }) {
  const width = 320;
  const height = 140;
  const pad = 28;
  const values = lines.flat();
  const low = Math.min(0, ...values);
  const high = Math.max(...values, low + 1);
  const steps = Math.max(...lines.map((line) => line.length), 1);
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(steps - 1, 1);
  const y = (v) => height - pad + 8 - ((v - low) * (height - 2 * pad)) / (high - low);
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    class: "chart lines-chart",
    "aria-label": label,
  });
  root.append(
    svg("line", { x1: pad, y1: y(low), x2: width - pad, y2: y(low), class: "axis" }),
    svg("line", { x1: pad, y1: 8, x2: pad, y2: height - pad + 8, class: "axis" }),
  );
  for (const value of [high, low]) {
    const text = svg("text", {
      x: pad - 4,
      y: y(value) + 4,
      "text-anchor": "end",
      class: "axis-label",
    });
    text.textContent = number(Math.round(value));
    root.append(text);
  }
  lines.forEach((line, n) => {
    root.append(
      svg("polyline", {
        points: line.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
        fill: "none",
        stroke: colors[n % colors.length],
        "stroke-width": 2,
        "stroke-linejoin": "round",
      }),
    );
    line.forEach((v, i) => {
      const dot = svg("circle", { cx: x(i), cy: y(v), r: 2, fill: colors[n % colors.length] });
      const title = svg("title");
      const step = titles[i] || t("Step {number}", { number: i + 1 });
      title.textContent = t("{step}: {value}", {
        step,
        value: number(Math.round(v * 10) / 10),
      });
      dot.append(title);
      root.append(dot);
    });
  });
  return root;
}
