/** Tiny DOM helpers: every text goes through textContent, never HTML. */
type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function clear(element: Element, ...children: Child[]): void {
  element.replaceChildren();
  append(element, ...children);
}

/** A labelled input: `<label>Text <input …></label>`. */
export function field(label: string, attrs: Attrs): { label: HTMLLabelElement; input: HTMLInputElement } {
  const input = h('input', attrs);
  return { label: h('label', {}, label, input), input };
}

/** A table whose cells carry their column's name (for the narrow, card-like layout). */
export function table(columns: string[], rows: Child[][]): HTMLTableElement {
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell, i) => h('td', { 'data-label': columns[i] ?? '' }, cell))))),
  );
}

export function when(iso: string | null): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A status line that screen readers announce. */
export function status(kind: 'error' | 'ok', text: string): HTMLParagraphElement {
  return h('p', { class: kind, role: kind === 'error' ? 'alert' : 'status' }, text);
}

/** "1 key", "2 keys", "0 runs": a count with its noun. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
