//! Namespaces: `zend_resolve_class_name`, `zend_resolve_function_name`,
//! `zend_resolve_const_name` over the current namespace and the `use`
//! imports. Names are resolved at compile time; an unqualified function or
//! constant in a namespace falls back to the global one at run time
//! (INIT_NS_FCALL_BY_NAME, FETCH_CONSTANT with op1 = 1).

use super::Compiler;
use crate::compiler::ast::*;

/// The imports of the namespace being compiled (lowercase alias → name;
/// constant aliases are case-sensitive).
#[derive(Default)]
pub struct Imports {
    pub classes: std::collections::HashMap<Vec<u8>, Vec<u8>>,
    pub functions: std::collections::HashMap<Vec<u8>, Vec<u8>>,
    pub consts: std::collections::HashMap<Vec<u8>, Vec<u8>>,
}

fn join(ns: &[u8], name: &[u8]) -> Vec<u8> {
    if ns.is_empty() {
        return name.to_vec();
    }
    [ns, b"\\", name].concat()
}

fn last_segment(name: &[u8]) -> &[u8] {
    match name.iter().rposition(|&c| c == b'\\') {
        Some(p) => &name[p + 1..],
        None => name,
    }
}

impl Compiler {
    /// The name a declaration in the current namespace gets.
    pub(super) fn declared_name(&self, short: &[u8]) -> Vec<u8> {
        join(&self.ns, short)
    }

    /// A qualified name whose first segment may be an imported alias.
    fn qualified(&self, name: &[u8]) -> Vec<u8> {
        let (first, rest) = match name.iter().position(|&c| c == b'\\') {
            Some(p) => (&name[..p], &name[p..]),
            None => (name, &b""[..]),
        };
        match self.imports.classes.get(&first.to_ascii_lowercase()) {
            Some(full) => [full.as_slice(), rest].concat(),
            None => join(&self.ns, name),
        }
    }

    /// `zend_resolve_class_name` (self/parent/static are left to the caller).
    pub(super) fn resolve_class(&self, n: &Name<'_>) -> Vec<u8> {
        let name = n.name.strip_prefix(b"\\").unwrap_or(n.name);
        match n.kind {
            NameKind::FullyQualified => name.to_vec(),
            NameKind::Relative => join(&self.ns, name),
            NameKind::Qualified => self.qualified(name),
            NameKind::Unqualified => match self.imports.classes.get(&name.to_ascii_lowercase()) {
                Some(full) => full.clone(),
                None => join(&self.ns, name),
            },
        }
    }

    /// `zend_resolve_function_name`: the name, and whether an undefined one
    /// falls back to the global function of its last segment.
    pub(super) fn resolve_function(&self, n: &Name<'_>) -> (Vec<u8>, bool) {
        let name = n.name.strip_prefix(b"\\").unwrap_or(n.name);
        match n.kind {
            NameKind::FullyQualified => (name.to_vec(), false),
            NameKind::Relative => (join(&self.ns, name), false),
            NameKind::Qualified => (self.qualified(name), false),
            NameKind::Unqualified => match self.imports.functions.get(&name.to_ascii_lowercase()) {
                Some(full) => (full.clone(), false),
                None => (join(&self.ns, name), !self.ns.is_empty()),
            },
        }
    }

    /// `zend_resolve_const_name`, as `resolve_function`.
    pub(super) fn resolve_const(&self, n: &Name<'_>) -> (Vec<u8>, bool) {
        let name = n.name.strip_prefix(b"\\").unwrap_or(n.name);
        match n.kind {
            NameKind::FullyQualified => (name.to_vec(), false),
            NameKind::Relative => (join(&self.ns, name), false),
            NameKind::Qualified => (self.qualified(name), false),
            NameKind::Unqualified => match self.imports.consts.get(name) {
                Some(full) => (full.clone(), false),
                None => (join(&self.ns, name), !self.ns.is_empty()),
            },
        }
    }

    /// `use A\B [as C];`, `use function …`, `use const …`.
    pub(super) fn compile_use(&mut self, items: &[UseItem<'_>]) {
        for u in items {
            let alias = u.alias.unwrap_or_else(|| last_segment(u.name));
            let full = u.name.to_vec();
            match u.kind {
                UseKind::Normal => self.imports.classes.insert(alias.to_ascii_lowercase(), full),
                UseKind::Function => self.imports.functions.insert(alias.to_ascii_lowercase(), full),
                UseKind::Const => self.imports.consts.insert(alias.to_vec(), full),
            };
        }
    }
}

/// The last segment of a namespaced name (a global fallback's name).
pub fn short_name(name: &[u8]) -> &[u8] {
    last_segment(name)
}
