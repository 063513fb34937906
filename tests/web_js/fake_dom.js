// A very small document for the unit tests: enough of createElement / createElementNS / text nodes,
// attributes, children and dataset for the page's drawing helpers (dom.js h and s) to run in Node.

class FakeNode {
  constructor() {
    this.childNodes = [];
    this.parentNode = null;
  }

  append(...nodes) {
    for (const node of nodes) {
      const child = typeof node === "string" ? new FakeText(node) : node;
      child.parentNode = this;
      this.childNodes.push(child);
    }
  }

  replaceChildren(...nodes) {
    this.childNodes = [];
    this.append(...nodes);
  }

  get textContent() {
    return this.childNodes.map((c) => c.textContent).join("");
  }

  set textContent(value) {
    this.childNodes = [];
    if (value !== "") this.append(new FakeText(String(value)));
  }
}

class FakeText extends FakeNode {
  constructor(text) {
    super();
    this.text = text;
  }

  get textContent() {
    return this.text;
  }
}

class FakeElement extends FakeNode {
  constructor(tag, ns = null) {
    super();
    this.tagName = tag;
    this.namespaceURI = ns;
    this.attributes = new Map();
    this.dataset = {};
    this.listeners = {};
    this.style = {};
  }

  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }

  getAttribute(name) {
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }

  removeAttribute(name) {
    this.attributes.delete(name);
  }

  addEventListener(kind, fn) {
    (this.listeners[kind] ||= []).push(fn);
  }

  get firstChild() {
    return this.childNodes[0] || null;
  }

  /** Every element below (depth first) whose tag is `tag`. */
  all(tag) {
    const out = [];
    for (const child of this.childNodes) {
      if (!(child instanceof FakeElement)) continue;
      if (child.tagName === tag) out.push(child);
      out.push(...child.all(tag));
    }
    return out;
  }
}

/** Install the fake document (and Node, for dom.js's `instanceof Node`) as globals. */
export function installFakeDom() {
  globalThis.Node = FakeNode;
  globalThis.document = {
    createElement: (tag) => new FakeElement(tag),
    createElementNS: (ns, tag) => new FakeElement(tag, ns),
    createTextNode: (text) => new FakeText(text),
    getElementById: () => null,
    querySelectorAll: () => [],
    documentElement: {},
  };
  return { FakeElement };
}
