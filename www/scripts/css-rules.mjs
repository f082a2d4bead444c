// What the stylesheet's split (split-styles.mjs) reads and writes a stylesheet with: a reader
// of the minified sheet into its rules, a writer of a chosen part of them back into a sheet,
// and what the split asks of a selector (the same selector without its pseudo-classes and
// pseudo-elements, its specificity, the element it styles). No dependency: the sheet is the
// page's own, minified by esbuild (minify.mjs), so the reader knows CSS's syntax only as far as
// such a sheet uses it (strings, escapes, blocks, no nesting) and throws on anything else.

/** At-rules whose block holds rules, whose condition the split leaves to the browser. */
const GROUPS = new Set(['@media', '@supports', '@container', '@layer', '@scope']);

/**
 * The rules of `text`, in order, each a leaf: a style rule (`{ kind: 'style', selector, body,
 * groups }`) or anything else kept whole (`{ kind: 'other', name, prelude, text, groups }`: a
 * @keyframes, @font-face, @import…). `groups` lists the preludes of the @media, @supports or
 * @container blocks the rule stands in, outermost first; `body` is the declarations between the
 * braces; `index` is the rule's place in the sheet.
 */
export function readRules(text) {
  const leaves = [];
  const read = (from, to, groups) => {
    let i = from;
    while (i < to) {
      while (i < to && /\s|;/.test(text[i])) i++;
      if (i >= to) break;
      const head = scanTo(text, i, to, '{;');
      const prelude = text.slice(i, head).trim();
      if (text[head] === ';' || head >= to) {
        // A statement (@import, @charset, @layer a, b;): kept whole.
        leaves.push({ kind: 'other', name: atName(prelude), prelude, text: `${prelude};`, groups });
        i = head + 1;
        continue;
      }
      const close = matching(text, head, to);
      if (prelude.startsWith('@')) {
        const name = atName(prelude);
        if (GROUPS.has(name)) {
          read(head + 1, close, [...groups, prelude]);
        } else {
          leaves.push({ kind: 'other', name, prelude, text: text.slice(i, close + 1), groups });
        }
      } else {
        const body = text.slice(head + 1, close);
        if (body.includes('{')) throw new Error(`nested rules in ${prelude}{…}: the split does not read them`);
        leaves.push({ kind: 'style', selector: prelude, body, groups });
      }
      i = close + 1;
    }
  };
  read(0, text.length, []);
  leaves.forEach((leaf, index) => { leaf.index = index; });
  return leaves;
}

/** The text of `leaves` (in their order) as a sheet, each in the blocks it stood in. */
export function writeRules(leaves) {
  let out = '';
  let open = [];
  for (const leaf of leaves) {
    let same = 0;
    while (same < open.length && same < leaf.groups.length && open[same] === leaf.groups[same]) same++;
    out += '}'.repeat(open.length - same);
    for (const prelude of leaf.groups.slice(same)) out += `${prelude}{`;
    open = leaf.groups;
    out += leaf.kind === 'style' ? `${leaf.selector}{${leaf.body}}` : leaf.text;
  }
  return out + '}'.repeat(open.length);
}

function atName(prelude) {
  return /^@[\w-]+/.exec(prelude)?.[0].toLowerCase() ?? '';
}

/** The first of `stops` at or after `i` outside strings, brackets and parentheses (or `to`). */
function scanTo(text, i, to, stops) {
  let depth = 0;
  for (; i < to; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"' || c === "'") i = endOfString(text, i);
    else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) + 1 || to;
    else if (depth === 0 && stops.includes(c)) return i;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
  }
  return to;
}

/** The brace that closes the block opened at `open`. */
function matching(text, open, to) {
  let depth = 0;
  for (let i = open; i < to; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"' || c === "'") i = endOfString(text, i);
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  throw new Error(`a block opened at ${open} is never closed`);
}

function endOfString(text, i) {
  const quote = text[i];
  for (i++; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  throw new Error('a string is never closed');
}

/** The selectors of a list (`a, b`), split at its top-level commas. */
export function selectorList(list) {
  const out = [];
  let i = 0;
  while (i <= list.length) {
    const end = scanTo(list, i, list.length, ',');
    out.push(list.slice(i, end).trim());
    i = end + 1;
  }
  return out;
}

/**
 * The parts of a selector: `{ type, text }` items, where type is 'combinator' (the text is ' ',
 * '>', '+' or '~'), 'tag', 'universal', 'id', 'class', 'attribute', 'pseudo-class' (with its
 * argument, if any, in `arg`) or 'pseudo-element'.
 */
export function selectorParts(selector) {
  const parts = [];
  const s = selector.trim();
  const ident = (i) => {
    let j = i;
    while (j < s.length && (/[\w-]/.test(s[j]) || s.charCodeAt(j) > 127 || s[j] === '\\')) j += s[j] === '\\' ? 2 : 1;
    return j;
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/\s|>|\+|~/.test(c)) {
      let j = i;
      while (j < s.length && /\s/.test(s[j])) j++;
      let text = ' ';
      if ('>+~'.includes(s[j])) {
        text = s[j];
        j++;
        while (j < s.length && /\s/.test(s[j])) j++;
      }
      parts.push({ type: 'combinator', text });
      i = j;
    } else if (c === '*') {
      parts.push({ type: 'universal', text: '*' });
      i++;
    } else if (c === '#' || c === '.') {
      const j = ident(i + 1);
      parts.push({ type: c === '#' ? 'id' : 'class', text: s.slice(i, j) });
      i = j;
    } else if (c === '[') {
      const j = scanTo(s, i + 1, s.length, ']');
      parts.push({ type: 'attribute', text: s.slice(i, j + 1) });
      i = j + 1;
    } else if (c === ':') {
      const element = s[i + 1] === ':';
      let j = ident(i + (element ? 2 : 1));
      const name = s.slice(i, j).toLowerCase();
      let arg;
      if (s[j] === '(') {
        const close = scanTo(s, j + 1, s.length, ')');
        arg = s.slice(j + 1, close);
        j = close + 1;
      }
      // :before, :after, :first-line and :first-letter are pseudo-elements written the old way.
      const legacy = [':before', ':after', ':first-line', ':first-letter'].includes(name);
      parts.push({ type: element || legacy ? 'pseudo-element' : 'pseudo-class', name, arg, text: s.slice(i, j) });
      i = j;
    } else if (/[\w-]/.test(c) || s.charCodeAt(i) > 127 || c === '\\') {
      const j = ident(i);
      parts.push({ type: 'tag', text: s.slice(i, j) });
      i = j;
    } else {
      throw new Error(`cannot read the selector ${selector} at ${i}`);
    }
  }
  return parts;
}

/**
 * The selector without its pseudo-classes and pseudo-elements (`.a:hover > b::before` is
 * `.a > b`), a compound left empty becoming `*`: it matches every element the selector could
 * match in some state (hovered, focused, checked…), and more.
 */
export function stripped(selector) {
  const out = [];
  let compound = [];
  let emptied = false;
  const flush = () => {
    if (compound.length) out.push(...compound);
    else if (emptied) out.push('*');
    compound = [];
    emptied = false;
  };
  for (const part of selectorParts(selector)) {
    if (part.type === 'combinator') {
      flush();
      out.push(part.text === ' ' ? ' ' : part.text);
    } else if (part.type === 'pseudo-class' || part.type === 'pseudo-element') {
      emptied = true;
    } else {
      compound.push(part.text);
    }
  }
  flush();
  return out.join('');
}

/** The specificity of one selector, as [ids, classes, types]. */
export function specificity(selector) {
  const total = [0, 0, 0];
  const add = (s) => { for (let k = 0; k < 3; k++) total[k] += s[k]; };
  const most = (list) => selectorList(list).map(specificity).reduce((a, b) => (compare(a, b) >= 0 ? a : b), [0, 0, 0]);
  for (const part of selectorParts(selector)) {
    if (part.type === 'id') add([1, 0, 0]);
    else if (part.type === 'class' || part.type === 'attribute') add([0, 1, 0]);
    else if (part.type === 'tag' || part.type === 'pseudo-element') add([0, 0, 1]);
    else if (part.type === 'pseudo-class') {
      if (part.name === ':where') continue;
      if ([':is', ':not', ':has', ':matches', ':-webkit-any'].includes(part.name)) add(most(part.arg ?? ''));
      else if (/^:nth-(last-)?child$/.test(part.name) && / of /i.test(part.arg ?? '')) {
        add([0, 1, 0]);
        add(most(part.arg.slice(part.arg.search(/ of /i) + 4)));
      } else add([0, 1, 0]);
    }
  }
  return total;
}

export function compare(a, b) {
  for (let k = 0; k < 3; k++) if (a[k] !== b[k]) return a[k] - b[k];
  return 0;
}

/**
 * What a selector says of the element it styles (its last compound): the pseudo-element (''
 * for the element itself), its tag, id, classes, attributes and the classes it must not have
 * (`:not(.x)`). Two selectors whose subjects contradict (two tags, two ids, a class one needs
 * and the other refuses, one attribute with two values, two pseudo-elements) never style the
 * same box.
 */
export function subject(selector) {
  const parts = selectorParts(selector);
  let start = parts.length;
  while (start > 0 && parts[start - 1].type !== 'combinator') start--;
  const out = { pseudo: '', tag: '', ids: [], classes: [], attributes: new Map(), refused: [] };
  for (const part of parts.slice(start)) {
    if (part.type === 'pseudo-element') out.pseudo = part.name.replace(/^::?/, '::');
    else if (part.type === 'tag') out.tag = part.text.toLowerCase();
    else if (part.type === 'id') out.ids.push(part.text);
    else if (part.type === 'class') out.classes.push(part.text);
    else if (part.type === 'attribute') {
      const m = /^\[\s*([\w-]+)\s*=\s*("([^"]*)"|'([^']*)'|([\w-]+))\s*\]$/.exec(part.text);
      if (m) out.attributes.set(m[1], m[3] ?? m[4] ?? m[5]);
    } else if (part.type === 'pseudo-class' && part.name === ':not' && /^\.[\w-]+$/.test((part.arg ?? '').trim())) {
      out.refused.push(part.arg.trim());
    }
  }
  return out;
}

/** Whether two selectors' subjects (subject()) contradict each other. */
export function disjoint(a, b) {
  if (a.pseudo !== b.pseudo) return true;
  if (a.tag && b.tag && a.tag !== b.tag) return true;
  if (a.ids.length && b.ids.length && a.ids.some((id) => !b.ids.includes(id))) return true;
  if (a.classes.some((c) => b.refused.includes(c)) || b.classes.some((c) => a.refused.includes(c))) return true;
  for (const [name, value] of a.attributes) {
    if (b.attributes.has(name) && b.attributes.get(name) !== value) return true;
  }
  return false;
}

/** The names of the properties a declaration block sets, as written (lower case). */
export function writtenProperties(body) {
  const out = new Map();
  let i = 0;
  while (i < body.length) {
    const end = scanTo(body, i, body.length, ';');
    const declaration = body.slice(i, end);
    const colon = declaration.indexOf(':');
    if (colon > 0) {
      const name = declaration.slice(0, colon).trim();
      out.set(name.startsWith('--') ? name : name.toLowerCase(), /!\s*important\s*$/i.test(declaration));
    }
    i = end + 1;
  }
  return out;
}

/**
 * The rules of the later sheet, given the rules of the first (`first`, indices into `leaves`):
 * the others, and the first sheet's rules that the later sheet must repeat so that the two
 * sheets, first then later, style every element as the one sheet did.
 *
 * With the two sheets, a rule of the later sheet comes after every rule of the first. Where a
 * rule of the first that followed it in the one sheet sets one of the same properties
 * (`properties(leaf)`: a Map of longhand names to whether they are !important) at the same
 * importance, through a selector of the same specificity that could style the same box, it
 * would now lose where it won: the later sheet repeats it, in its place, and then in turn the
 * rules of the first sheet that followed and would lose to the repeated one. A rule that is in
 * both sheets has the same declarations twice, and its place in the later sheet decides: so
 * every pair of rules that could set the same property of one box keeps its order, and the
 * first sheet, which only the first view needs, keeps no rule it does not need. `why` gets,
 * for each repeated rule, the rule it would have lost to.
 */
export function laterRules(leaves, first, properties, why = new Map()) {
  const info = leaves.map((leaf) => leaf.kind === 'style'
    ? {
      selectors: selectorList(leaf.selector).map((s) => ({ specificity: specificity(s), subject: subject(s) })),
      properties: properties(leaf),
    }
    : null);
  const clash = (a, b) => {
    let shared = false;
    for (const [name, important] of a.properties) {
      if (b.properties.has(name) && b.properties.get(name) === important) {
        shared = true;
        break;
      }
    }
    if (!shared) return false;
    return a.selectors.some((x) => b.selectors.some((y) =>
      compare(x.specificity, y.specificity) === 0 && !disjoint(x.subject, y.subject)));
  };
  const later = [];
  for (let k = 0; k < leaves.length; k++) {
    if (!first.has(k)) {
      later.push(k);
      continue;
    }
    if (!info[k]) continue;
    const overtaken = later.find((a) => info[a] && clash(info[a], info[k]));
    if (overtaken !== undefined) {
      later.push(k);
      why.set(k, overtaken);
    }
  }
  return later;
}
