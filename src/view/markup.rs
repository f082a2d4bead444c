//! Markup as plain data: elements with their attributes, text and children, and what
//! pressing an element does. The page turns this tree into Yew's virtual DOM;
//! [`Element::to_markup`] writes it as text (SVG or HTML), natively.

use super::graph::Press;

/// One element.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    /// Its tag, e.g. `g`.
    pub tag: &'static str,
    /// Its attributes, in order.
    pub attrs: Vec<(&'static str, String)>,
    /// Its children, in order.
    pub children: Vec<Node>,
    /// A key that identifies it among its siblings from one frame to the next.
    pub key: Option<String>,
    /// What pressing it does (a click; Enter or Space on a focusable element).
    pub press: Option<Box<Press>>,
}

/// A child of an element.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// An element.
    Element(Element),
    /// Text.
    Text(String),
    /// A run of children that stays one child from frame to frame (a list, or a part shown
    /// only sometimes: then empty), so the siblings after it keep their places; it adds no
    /// element of its own.
    List(Vec<Node>),
}

impl Element {
    /// An element without attributes or children.
    pub fn new(tag: &'static str) -> Element {
        Element {
            tag,
            attrs: Vec::new(),
            children: Vec::new(),
            key: None,
            press: None,
        }
    }

    /// With one more attribute.
    pub fn attr(mut self, name: &'static str, value: impl Into<String>) -> Element {
        self.attrs.push((name, value.into()));
        self
    }

    /// With one more attribute, when there is a value.
    pub fn attr_opt(self, name: &'static str, value: Option<impl Into<String>>) -> Element {
        match value {
            Some(v) => self.attr(name, v),
            None => self,
        }
    }

    /// With one more child element.
    pub fn child(mut self, child: Element) -> Element {
        self.children.push(Node::Element(child));
        self
    }

    /// With one more child element when there is one, else an empty [`Node::List`] in its
    /// place.
    pub fn child_opt(mut self, child: Option<Element>) -> Element {
        self.children.push(match child {
            Some(c) => Node::Element(c),
            None => Node::List(Vec::new()),
        });
        self
    }

    /// With one more child that is shown only sometimes: a [`Node::List`] of it, or an empty
    /// one.
    pub fn child_if(mut self, child: Option<Element>) -> Element {
        self.children
            .push(Node::List(child.into_iter().map(Node::Element).collect()));
        self
    }

    /// With these child elements, as one [`Node::List`].
    pub fn children(mut self, children: impl IntoIterator<Item = Element>) -> Element {
        self.children.push(Node::List(
            children.into_iter().map(Node::Element).collect(),
        ));
        self
    }

    /// With one more text child.
    pub fn text(mut self, text: impl Into<String>) -> Element {
        self.children.push(Node::Text(text.into()));
        self
    }

    /// With a key.
    pub fn key(mut self, key: impl Into<String>) -> Element {
        self.key = Some(key.into());
        self
    }

    /// With what pressing it does.
    pub fn press(mut self, press: Press) -> Element {
        self.press = Some(Box::new(press));
        self
    }

    /// The value of attribute `name`, if it has it.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Every element under this one (itself first), depth first, in document order.
    pub fn descendants(&self) -> Vec<&Element> {
        fn walk<'a>(nodes: &'a [Node], out: &mut Vec<&'a Element>) {
            for n in nodes {
                match n {
                    Node::Element(e) => {
                        out.push(e);
                        walk(&e.children, out);
                    }
                    Node::List(list) => walk(list, out),
                    Node::Text(_) => {}
                }
            }
        }
        let mut out = vec![self];
        walk(&self.children, &mut out);
        out
    }

    /// Its text and its descendants' text, in document order.
    pub fn text_content(&self) -> String {
        fn walk(nodes: &[Node], out: &mut String) {
            for n in nodes {
                match n {
                    Node::Element(e) => walk(&e.children, out),
                    Node::List(list) => walk(list, out),
                    Node::Text(t) => out.push_str(t),
                }
            }
        }
        let mut out = String::new();
        walk(&self.children, &mut out);
        out
    }

    /// The element as markup text: attributes and text escaped, an element without
    /// children closed at once (`<circle r="6"/>`). Keys and presses are not markup.
    pub fn to_markup(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        out.push('<');
        out.push_str(self.tag);
        for (name, value) in &self.attrs {
            out.push(' ');
            out.push_str(name);
            out.push_str("=\"");
            escape_into(value, out);
            out.push('"');
        }
        if !has_content(&self.children) {
            out.push_str("/>");
            return;
        }
        out.push('>');
        write_nodes(&self.children, out);
        out.push_str("</");
        out.push_str(self.tag);
        out.push('>');
    }
}

/// Whether any of `nodes` is an element or text (empty lists are nothing).
fn has_content(nodes: &[Node]) -> bool {
    nodes.iter().any(|n| match n {
        Node::List(list) => has_content(list),
        Node::Element(_) | Node::Text(_) => true,
    })
}

fn write_nodes(nodes: &[Node], out: &mut String) {
    for n in nodes {
        match n {
            Node::Element(e) => e.write(out),
            Node::Text(t) => escape_into(t, out),
            Node::List(list) => write_nodes(list, out),
        }
    }
}

/// Appends `text` with `&`, `<`, `>` and `"` escaped.
fn escape_into(text: &str, out: &mut String) {
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_attributes_text_and_empty_elements() {
        let e = Element::new("g")
            .attr("class", "a b")
            .child(Element::new("circle").attr("r", "6"))
            .child(Element::new("text").text("x < y & \"z\""))
            .key("k")
            .press(Press::Add { group: "g".into() });
        assert_eq!(
            e.to_markup(),
            "<g class=\"a b\"><circle r=\"6\"/><text>x &lt; y &amp; &quot;z&quot;</text></g>"
        );
        assert_eq!(e.text_content(), "x < y & \"z\"");
        assert_eq!(e.descendants().len(), 3);
        assert_eq!(e.get("class"), Some("a b"));
        assert_eq!(e.get("id"), None);
    }

    #[test]
    fn optional_attributes_and_children_are_left_out() {
        let e = Element::new("g")
            .attr_opt("data-x", None::<String>)
            .attr_opt("data-y", Some("1"))
            .child_opt(None)
            .child_if(None)
            .children(Vec::new());
        assert_eq!(e.to_markup(), "<g data-y=\"1\"/>");
        assert_eq!(e.children.len(), 3, "each absent part keeps its place");
        let shown = Element::new("g")
            .child_if(Some(Element::new("a")))
            .children([Element::new("b"), Element::new("c")]);
        assert_eq!(shown.to_markup(), "<g><a/><b/><c/></g>");
    }
}
