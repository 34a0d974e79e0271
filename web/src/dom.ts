// Building the page: elements are made with `h`, and every string given as a child becomes a
// text node.  Nothing the server or a player sends is ever parsed as HTML (names are text).

export type Child = Node | string | number | null | undefined | false;

export function h(tag: string, attrs: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined) el.setAttribute(name, value);
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === "number" ? String(child) : child);
  }
}

/** Replace what an element holds. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`the page has no #${id}`);
  return el as T;
}

/** A button that runs `onClick`; `key` is shown on it (a keyboard shortcut). */
export function button(label: string, onClick: () => void, options: { key?: string; cls?: string; id?: string } = {}):
    HTMLButtonElement {
  const el = h("button", { type: "button", class: options.cls, id: options.id,
    "data-key": options.key, "aria-keyshortcuts": options.key }, label) as HTMLButtonElement;
  if (options.key) el.append(" ", h("kbd", {}, options.key === "Escape" ? "Esc" : options.key));
  el.addEventListener("click", onClick);
  return el;
}
