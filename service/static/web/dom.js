// Tiny DOM helpers: build HTML and SVG elements from (tag, attributes, children).

const SVG_NS = "http://www.w3.org/2000/svg";

function assign(el, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (name === "className") {
      el.setAttribute("class", value);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h("button", {onclick: f, class: "x"}, "text", otherNode). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs && attrs.class) {
    attrs = { ...attrs, className: attrs.class };
    delete attrs.class;
  }
  assign(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  if (attrs && attrs.class) {
    attrs = { ...attrs, className: attrs.class };
    delete attrs.class;
  }
  assign(el, attrs);
  append(el, children);
  return el;
}

/** Make an SVG element act like a button: focusable, Enter/Space activate it. */
export function svgButton(el, label, onActivate) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.addEventListener("click", onActivate);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onActivate(e);
    }
  });
  el.append(s("title", {}, label));
  return el;
}

/** Replace everything inside `el` with `children`, keeping keyboard focus on the
 * element with the same data-key if it is drawn again. */
export function replaceChildren(el, ...children) {
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.getAttribute("data-key") : null;
  el.replaceChildren();
  append(el, children);
  if (key) {
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

/** Put `fresh` in place of `old`, keeping keyboard focus on the element with the same
 * data-key if `old` held the focus. */
export function swap(old, fresh) {
  const active = document.activeElement;
  const key = active && old.contains(active) ? active.getAttribute("data-key") : null;
  old.replaceWith(fresh);
  if (key) {
    const again = fresh.getAttribute("data-key") === key ? fresh : fresh.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

/** "1 card", "2 cards". */
export function plural(n, word, many = word + "s") {
  return `${n} ${n === 1 ? word : many}`;
}

/** "lombard-street" -> "Lombard Street" (for ids without a display name). */
export function titleCase(id) {
  return String(id)
    .split(/[-_]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

/** Name each body cell of `table` after its column's heading (`data-label`), so that a narrow screen
 * can show each row as a block of named values (app.css) instead of cutting the table. */
export function labelCells(table) {
  const headings = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.children].forEach((cell, i) => {
      if (headings[i] && cell.tagName === "TD") cell.setAttribute("data-label", headings[i]);
    });
  }
  return table;
}
