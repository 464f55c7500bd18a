/**
 * A segment trie of route paths: `/a/:param/b`, and `*rest` as the last segment for the rest
 * of the path (one or more characters, slashes included). Matching walks the request's
 * segments once, down the literal child and the parameter child of each node, so its cost is
 * the path's length, not the number of routes.
 *
 * It matches as the path-to-regexp `match()` the routes were written for: literals are
 * case-insensitive, a parameter is one non-empty segment, one trailing slash is ignored.
 * Parameters are answered raw (percent-encoded): a surface decides how to decode them.
 */
export class RouteTrie<T> {
  readonly #root: TrieNode<T> = newNode();
  #count = 0;

  add(path: string, value: T): void {
    const segments = path.split("/").slice(1);
    const names: string[] = [];
    let node = this.#root;
    for (const [i, segment] of segments.entries()) {
      if (segment.startsWith("*")) {
        if (i !== segments.length - 1) throw new Error(`${path}: a *wildcard must be the last segment`);
        names.push(segment.slice(1));
        node.rest.push({ value, names, order: this.#count++ });
        return;
      }
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        node.param ??= newNode();
        node = node.param;
      } else {
        const key = segment.toLowerCase();
        const child = node.literals.get(key) ?? newNode<T>();
        node.literals.set(key, child);
        node = child;
      }
    }
    node.ends.push({ value, names, order: this.#count++ });
  }

  /** Every route whose path matches, in the order they were added, with their raw parameters. */
  match(path: string): TrieMatch<T>[] {
    const segments = path.split("/");
    // One trailing slash is ignored; a wildcard keeps it.
    const trailing = segments.length > 2 && segments[segments.length - 1] === "";
    if (trailing) segments.pop();
    const found: Found<T>[] = [];
    collect(this.#root, segments, 1, [], trailing, found);
    if (found.length > 1) found.sort((a, b) => a.order - b.order);
    return found;
  }
}

type Found<T> = TrieMatch<T> & { order: number };

/** Adds the routes below `node` that match `segments` from `i` on (`captured`: the parameters so far). */
function collect<T>(
  node: TrieNode<T>,
  segments: string[],
  i: number,
  captured: string[],
  trailing: boolean,
  found: Found<T>[],
): void {
  if (i < segments.length && node.rest.length > 0) {
    const rest = segments.slice(i).join("/") + (trailing ? "/" : "");
    for (const leaf of node.rest) found.push(matchOf(leaf, [...captured, rest]));
  }
  if (i === segments.length) {
    for (const leaf of node.ends) found.push(matchOf(leaf, captured));
    return;
  }
  const segment = segments[i] as string;
  if (segment === "") return;
  const literal = node.literals.get(segment) ?? node.literals.get(segment.toLowerCase());
  if (literal) collect(literal, segments, i + 1, captured, trailing, found);
  if (node.param) {
    captured.push(segment);
    collect(node.param, segments, i + 1, captured, trailing, found);
    captured.pop();
  }
}

export type TrieMatch<T> = { value: T; params: Record<string, string> };

type Leaf<T> = { value: T; names: string[]; order: number };
type TrieNode<T> = {
  literals: Map<string, TrieNode<T>>;
  param?: TrieNode<T>;
  /** Routes that end at this node. */
  ends: Leaf<T>[];
  /** Routes whose `*wildcard` takes what follows this node. */
  rest: Leaf<T>[];
};

function newNode<T>(): TrieNode<T> {
  return { literals: new Map(), ends: [], rest: [] };
}

function matchOf<T>(leaf: Leaf<T>, values: string[]): Found<T> {
  const params: Record<string, string> = {};
  for (const [i, name] of leaf.names.entries()) params[name] = values[i] as string;
  return { value: leaf.value, params, order: leaf.order };
}
