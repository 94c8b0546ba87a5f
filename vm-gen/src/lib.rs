//! vm-gen: expands Tusk's `handlers.def` into the opcode list (`opcodes.rs`)
//! and the specialized handlers with their lookup table (`handlers.rs`).
//!
//! Pipeline: `parse` (syn, spans kept) → `model::check` → `expand` (instances,
//! names, bodies via the `operand` table) → `emit` (prettyplease).
//! Never panics on bad input: every problem is an [`Error`] with a location.

pub mod builtins;
mod emit;
mod expand;
mod model;
mod operand;
mod parse;
#[cfg(test)]
mod tests;

use proc_macro2::Span;
use std::fmt;
use std::path::Path;

/// A problem in handlers.def (or I/O), shown as `handlers.def:LINE:COL: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub file: String,
    /// 1-based; 0 when the problem has no location (I/O).
    pub line: usize,
    /// 1-based.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
        }
    }
}

impl std::error::Error for Error {}

/// An error before the file name is known.
#[derive(Clone, Debug)]
pub(crate) struct Diag {
    line: usize,
    column: usize,
    message: String,
}

impl Diag {
    pub(crate) fn new(span: Span, message: impl Into<String>) -> Diag {
        let lc = span.start();
        Diag { line: lc.line, column: lc.column + 1, message: message.into() }
    }
    fn into_error(self, file: &str) -> Error {
        Error { file: file.to_string(), line: self.line, column: self.column, message: self.message }
    }
}

impl From<syn::Error> for Diag {
    fn from(e: syn::Error) -> Diag {
        Diag::new(e.span(), e.to_string())
    }
}

/// One generated instance, for listings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstanceInfo {
    /// `ADD_SPEC_CV_CONST`
    pub name: String,
    /// Kind names of the declared operands (`None`: not declared).
    pub op1: Option<String>,
    pub op2: Option<String>,
    /// Spec parts of the name: `OP_DATA_CV`, `RETVAL_USED`, `JMPZ`.
    pub extras: Vec<String>,
}

/// The instances of one opcode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpcodeInstances {
    pub opcode: String,
    pub has_handler: bool,
    pub instances: Vec<InstanceInfo>,
}

/// What was generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub opcodes: usize,
    /// Opcodes with a handler (not `opcode` items).
    pub handlers: usize,
    pub instances: usize,
    /// Per opcode, in opcode order.
    pub per_opcode: Vec<OpcodeInstances>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} opcodes ({} with handlers), {} instances", self.opcodes, self.handlers, self.instances)
    }
}

/// The generated sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    pub opcodes_rs: String,
    pub handlers_rs: String,
    pub report: Report,
}

/// Narrows `expand_one` (kind names like `CV`, `TMPVAR`; spec like `JMPZ`,
/// `RETVAL_USED`, `OP_DATA_CONST`).
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub op1: Option<String>,
    pub op2: Option<String>,
    pub spec: Option<String>,
}

struct Checked {
    def: model::Def,
    insts: Vec<expand::Instance>,
}

fn check(def_src: &str) -> Result<Checked, Diag> {
    let file: parse::DefFile = syn::parse_str(def_src)?;
    let def = model::check(file)?;
    if def.handlers.is_empty() {
        return Err(Diag { line: 1, column: 1, message: "handlers.def defines no opcode".into() });
    }
    let mut insts = Vec::new();
    for (i, h) in def.handlers.iter().enumerate() {
        insts.extend(expand::instances(h, i));
    }
    Ok(Checked { def, insts })
}

fn report(c: &Checked) -> Report {
    let per_opcode = c
        .def
        .handlers
        .iter()
        .enumerate()
        .map(|(hi, h)| OpcodeInstances {
            opcode: h.name.clone(),
            has_handler: h.body.is_some(),
            instances: c.insts.iter().filter(|i| i.handler == hi).map(|i| info(h, i)).collect(),
        })
        .collect();
    Report {
        opcodes: c.def.handlers.len(),
        handlers: c.def.handlers.iter().filter(|h| h.body.is_some()).count(),
        instances: c.insts.len(),
        per_opcode,
    }
}

fn info(h: &model::Handler, i: &expand::Instance) -> InstanceInfo {
    InstanceInfo {
        name: i.name.clone(),
        op1: h.op1.declared.then(|| i.op1.name().to_string()),
        op2: h.op2.declared.then(|| i.op2.name().to_string()),
        extras: i.extras(),
    }
}

/// Parses, checks and expands `def_src`; `def_name` names the file in
/// errors and in the instances' provenance lines.
pub fn generate(def_src: &str, def_name: &str) -> Result<Generated, Error> {
    generate_diag(def_src, def_name).map_err(|d| d.into_error(def_name))
}

fn generate_diag(def_src: &str, def_name: &str) -> Result<Generated, Diag> {
    let c = check(def_src)?;
    let handlers = emit::handlers::emit(&c.def, &c.insts, def_name)?;
    let opcodes = emit::opcodes::emit(&c.def);
    Ok(Generated {
        opcodes_rs: emit::format::file(emit::HEADER, opcodes)?,
        handlers_rs: emit::format::file(emit::HEADER, handlers)?,
        report: report(&c),
    })
}

/// The formatted instances of one opcode's handler, narrowed by `filter`
/// (for `vm-gen expand`).
pub fn expand_one(def_src: &str, def_name: &str, opcode: &str, filter: &Filter) -> Result<String, Error> {
    let run = || -> Result<String, Diag> {
        let c = check(def_src)?;
        let nowhere = |m: String| Diag { line: 0, column: 0, message: m };
        let (hi, h) = c
            .def
            .handlers
            .iter()
            .enumerate()
            .find(|(_, h)| h.name == opcode)
            .ok_or_else(|| nowhere(format!("no opcode `{opcode}`")))?;
        if h.body.is_none() {
            return Err(nowhere(format!("`{opcode}` is an `opcode` item: it has no handler")));
        }
        let mut items = Vec::new();
        for i in c.insts.iter().filter(|i| i.handler == hi) {
            let inf = info(h, i);
            let ok = filter.op1.as_ref().is_none_or(|k| inf.op1.as_ref() == Some(k))
                && filter.op2.as_ref().is_none_or(|k| inf.op2.as_ref() == Some(k))
                && filter.spec.as_ref().is_none_or(|s| inf.extras.contains(s));
            if ok {
                items.push(emit::handlers::instance(h, i, def_name)?);
            }
        }
        if items.is_empty() {
            return Err(nowhere(format!("no instance of `{opcode}` matches the filter")));
        }
        emit::format::file("", quote::quote!(#(#items)*))
    };
    run().map_err(|d| d.into_error(def_name))
}

/// Reads `def_path` and writes `out_dir/opcodes.rs` and `out_dir/handlers.rs`
/// (files whose content is unchanged are not rewritten). When the
/// `TUSK_GEN_DIR` environment variable is set, copies both there too.
pub fn write(def_path: &Path, out_dir: &Path) -> Result<Report, Error> {
    let def_name = def_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| def_path.display().to_string());
    let io = |what: String, e: std::io::Error| Error {
        file: def_name.clone(),
        line: 0,
        column: 0,
        message: format!("{what}: {e}"),
    };
    let src = std::fs::read_to_string(def_path).map_err(|e| io(format!("cannot read {}", def_path.display()), e))?;
    let g = generate(&src, &def_name)?;
    let mut dirs = vec![out_dir.to_path_buf()];
    if let Some(d) = std::env::var_os("TUSK_GEN_DIR").filter(|d| !d.is_empty()) {
        dirs.push(d.into());
    }
    for dir in dirs {
        std::fs::create_dir_all(&dir).map_err(|e| io(format!("cannot create {}", dir.display()), e))?;
        for (name, text) in [("opcodes.rs", &g.opcodes_rs), ("handlers.rs", &g.handlers_rs)] {
            let p = dir.join(name);
            if std::fs::read_to_string(&p).ok().as_deref() != Some(text.as_str()) {
                std::fs::write(&p, text).map_err(|e| io(format!("cannot write {}", p.display()), e))?;
            }
        }
    }
    Ok(g.report)
}
