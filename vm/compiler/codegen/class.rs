//! Class declarations (`zend_compile_class_decl`): members become a
//! `ClassDef`; methods are compiled as functions with their class's scope;
//! constant expressions that don't fold become small init functions run on
//! first use.

use super::emit::{FuncBuilder, Lit, Node};
use super::{fatal, unsupported, CResult, Compiler};
use crate::compiler::ast::{self, ClassDecl, ClassKind, ClassMember, Expr, Modifiers};
use crate::ops::{Opcode, TypeMask};
use crate::runtime::class::*;

/// The class whose body is being compiled.
#[derive(Clone)]
pub struct ClassCtx {
    pub name: Vec<u8>,
    pub parent: Option<Vec<u8>>,
    pub kind: ClassKind,
    /// Constants declared so far with a literal value (Zend substitutes
    /// `self::C` for them: `zend_try_ct_eval_class_const`).
    pub consts: Vec<(Vec<u8>, Lit)>,
    /// Methods compiled so far: lowercase name, flags, signature (calls
    /// to them are known calls: `zend_get_compatible_func_or_null`).
    pub methods: Vec<(Vec<u8>, u32, super::KnownFunc)>,
}

/// Promoted constructor parameters seen while compiling `__construct`.
pub struct Promoted {
    pub name: Vec<u8>,
    pub flags: u32,
    pub ty: Option<(TypeMask, String)>,
    pub line: u32,
}

fn member_flags(m: Modifiers) -> u32 {
    let mut f = 0;
    if m.has(Modifiers::PRIVATE) {
        f |= ACC_PRIVATE;
    } else if m.has(Modifiers::PROTECTED) {
        f |= ACC_PROTECTED;
    } else {
        f |= ACC_PUBLIC;
    }
    if m.has(Modifiers::STATIC) {
        f |= ACC_STATIC;
    }
    if m.has(Modifiers::ABSTRACT) {
        f |= ACC_ABSTRACT;
    }
    if m.has(Modifiers::FINAL) {
        f |= ACC_FINAL;
    }
    if m.has(Modifiers::READONLY) {
        f |= ACC_READONLY;
    }
    f
}

/// Magic methods an enum may not declare (`zend_verify_enum_magic`).
const ENUM_FORBIDDEN_MAGIC: &[&[u8]] = &[
    b"__construct", b"__destruct", b"__clone", b"__get", b"__set", b"__unset", b"__isset", b"__tostring",
    b"__debuginfo", b"__serialize", b"__unserialize", b"__sleep", b"__wakeup", b"__set_state",
];

/// `cases()`, and for backed enums `from()` and `tryFrom()`: builtin static
/// methods every enum gets (`zend_enum_register_funcs`).
fn enum_methods(def: &mut ClassDef, line: u32) -> CResult<()> {
    use crate::stdlib::enums;
    let mut add: Vec<(&str, crate::runtime::function::BuiltinFn, bool)> = vec![("cases", enums::cases, false)];
    if def.flags & (CLASS_ENUM_INT | CLASS_ENUM_STRING) != 0 {
        add.push(("from", enums::from, true));
        add.push(("tryFrom", enums::try_from, true));
    }
    for (name, f, arg) in add {
        if def.methods.iter().any(|m| m.func.op.name.eq_ignore_ascii_case(name.as_bytes())) {
            return fatal(format!("Cannot redeclare {}::{name}()", String::from_utf8_lossy(&def.name)), line);
        }
        let mut op = crate::ops::OpArray::new(name.as_bytes().to_vec(), std::sync::Arc::from(""));
        if arg {
            op.arg_info.push(crate::ops::ArgInfo { name: b"value".to_vec(), ..Default::default() });
            op.num_args = 1;
            op.required_args = 1;
        }
        let func = Box::new(crate::runtime::function::Function { op, builtin: Some(f), decl: None });
        def.methods.push(MethodDef { func, flags: ACC_PUBLIC | ACC_STATIC });
    }
    Ok(())
}

impl Compiler {
    /// A class statement. Top-level classes Zend binds early are bound
    /// before the script runs; others by DECLARE_CLASS(_DELAYED) where
    /// they stand.
    pub fn compile_class_decl(&mut self, decl: &ClassDecl<'_>, toplevel: bool) -> CResult<()> {
        let Some(name) = decl.name else {
            return unsupported("Anonymous class", decl.line);
        };
        let lc = name.to_ascii_lowercase();
        if matches!(lc.as_slice(), b"self" | b"parent" | b"static") {
            return fatal(format!("Cannot use '{}' as class name as it is reserved", String::from_utf8_lossy(name)), decl.line);
        }
        let full = self.declared_name(name);
        let name = &full[..];
        let lc = name.to_ascii_lowercase();
        let def = self.class_def(decl, name)?;
        if toplevel && !self.declared_classes.contains(&lc) && crate::runtime::builtin_classes::is_builtin_name(&lc) {
            return fatal(format!("Cannot declare class {}, because the name is already in use", String::from_utf8_lossy(name)), decl.line);
        }
        // Zend binds a top-level class at compile time (early binding) only
        // without interfaces (a `__toString` adds Stringable) or traits and
        // with its parent bound already (a builtin class, or one bound early
        // above). Every other declaration is bound when its DECLARE_CLASS
        // runs, and takes a runtime definition key, which the names of
        // anonymous classes count.
        let plc = decl.extends.map(|p| self.resolve_class(&p).to_ascii_lowercase());
        let builtin_parent = plc.as_ref().is_some_and(|p| crate::runtime::builtin_classes::is_builtin_name(p));
        let parent_bound = plc.as_ref().map_or(true, |p| self.early_classes.contains(p) || builtin_parent);
        let has_traits = decl.members.iter().any(|m| matches!(m, ClassMember::TraitUse { .. }));
        let has_interfaces = !def.interfaces.is_empty() || def.methods.iter().any(|m| m.func.op.name.eq_ignore_ascii_case(b"__toString"));
        let early = toplevel && !has_interfaces && !has_traits && parent_bound;
        self.declared_classes.push(lc.clone());
        if early {
            self.early_classes.push(lc);
            self.classes.push(Box::new(def));
            if builtin_parent {
                // opcache binds a child of a builtin class at load time
                // (DECLARE_CLASS_DELAYED); `php -n` binds it at compile time,
                // as here: the opline finds it bound and does nothing.
                self.f.line = decl.line;
                self.f.emit_raw(Opcode::DeclareClassDelayed, u32::MAX, 0);
            }
            return Ok(());
        }
        self.rtd_counter += 1;
        let idx = self.f.op.declared_classes.len() as u32;
        self.f.op.declared_classes.push(Box::new(def));
        self.f.line = decl.line;
        // Zend's DECLARE_CLASS_DELAYED: a top-level child whose parent is
        // not bound yet (bound when it runs, as `php -n`'s DECLARE_CLASS).
        let code = if toplevel && plc.is_some() && !has_interfaces && !has_traits { Opcode::DeclareClassDelayed } else { Opcode::DeclareClass };
        self.f.emit_raw(code, idx, 0);
        Ok(())
    }

    /// `new class(...) extends P implements I { … }`: the class is compiled
    /// as a nested declaration named as Zend names it
    /// (`P@anonymous\0FILE:LINE$N`, N counting the runtime-bound class
    /// declarations before it) and bound by DECLARE_ANON_CLASS on first use.
    pub fn compile_anon_class(&mut self, decl: &ClassDecl<'_>) -> CResult<Node> {
        let prefix = match (decl.extends, decl.implements.first()) {
            (Some(p), _) => self.resolve_class(&p),
            (None, Some(i)) => self.resolve_class(i),
            (None, None) => b"class".to_vec(),
        };
        let mut name = prefix;
        name.extend_from_slice(b"@anonymous\0");
        name.extend_from_slice(self.filename.as_bytes());
        name.extend_from_slice(format!(":{}${:x}", decl.line, self.rtd_counter).as_bytes());
        self.rtd_counter += 1;
        let mut def = self.class_def(decl, &name)?;
        def.flags |= CLASS_ANONYMOUS;
        let idx = self.f.op.declared_classes.len() as u32;
        self.f.op.declared_classes.push(Box::new(def));
        self.f.line = decl.line;
        let parent = match decl.extends {
            Some(p) => Node::Const(Lit::Str(self.resolve_class(&p).to_ascii_lowercase())),
            None => Node::Unused,
        };
        let r = self.f.var();
        let i = self.f.emit(Opcode::DeclareAnonClass, &Node::Const(Lit::Str(name)), &parent, &r);
        self.f.at(i).extended_value = idx;
        Ok(r)
    }

    fn class_def(&mut self, decl: &ClassDecl<'_>, name: &[u8]) -> CResult<ClassDef> {
        let mut flags = match decl.kind {
            ClassKind::Class => 0,
            ClassKind::Interface => CLASS_INTERFACE,
            ClassKind::Trait => CLASS_TRAIT,
            ClassKind::Enum => CLASS_ENUM | CLASS_FINAL,
        };
        if decl.modifiers.has(Modifiers::ABSTRACT) {
            flags |= CLASS_ABSTRACT;
        }
        if decl.modifiers.has(Modifiers::FINAL) {
            flags |= CLASS_FINAL;
        }
        if decl.modifiers.has(Modifiers::READONLY) {
            flags |= CLASS_READONLY;
        }
        if decl.attributes.iter().any(|a| a.name.name.eq_ignore_ascii_case(b"AllowDynamicProperties")) {
            flags |= CLASS_ALLOW_DYNAMIC;
        }
        let mut def = ClassDef::new(name, flags, decl.line);
        def.end_line = decl.end_line;
        if decl.kind == ClassKind::Interface {
            def.interfaces = decl.implements.iter().map(|n| self.resolve_class(n)).collect();
        } else {
            def.parent = decl.extends.map(|n| self.resolve_class(&n));
            def.interfaces = decl.implements.iter().map(|n| self.resolve_class(n)).collect();
        }
        if decl.kind == ClassKind::Enum {
            def.interfaces.push(if decl.enum_backing.is_some() { b"BackedEnum".to_vec() } else { b"UnitEnum".to_vec() });
        }
        if decl.kind == ClassKind::Enum {
            self.enum_props(decl, &mut def)?;
        }
        let ctx = ClassCtx { name: name.to_vec(), parent: def.parent.clone(), kind: decl.kind, consts: Vec::new(), methods: Vec::new() };
        let saved = self.class_ctx.replace(ctx);
        let r = self.class_members(decl, &mut def);
        self.class_ctx = saved;
        r?;
        if decl.kind == ClassKind::Enum {
            enum_methods(&mut def, decl.line)?;
        }
        def.freeze();
        Ok(def)
    }

    fn class_members(&mut self, decl: &ClassDecl<'_>, def: &mut ClassDef) -> CResult<()> {
        let cname = String::from_utf8_lossy(&def.name).into_owned();
        for m in decl.members {
            match m {
                ClassMember::Const { modifiers, consts, line, .. } => {
                    for c in consts.iter() {
                        if def.consts.iter().any(|x| x.name == c.name) {
                            return fatal(format!("Cannot redefine class constant {cname}::{}", String::from_utf8_lossy(c.name)), *line);
                        }
                        let value = self.init_value(c.value, *line)?;
                        if let (Init::Lit(v), Some(ctx)) = (&value, self.class_ctx.as_mut()) {
                            if let Some(l) = super::expr::lit_of(v) {
                                ctx.consts.push((c.name.to_vec(), l));
                            }
                        }
                        def.consts.push(ConstDef { name: c.name.to_vec(), value, flags: member_flags(*modifiers), line: *line });
                    }
                }
                ClassMember::Property { modifiers, ty, props, line, .. } => {
                    if decl.kind == ClassKind::Enum {
                        return fatal(format!("Enum {cname} cannot include properties"), *line);
                    }
                    let mut flags = member_flags(*modifiers);
                    if def.flags & CLASS_READONLY != 0 {
                        flags |= ACC_READONLY;
                    }
                    let ty = match ty {
                        Some(t) => Some(self.type_of_pub(t, *line)?),
                        None => None,
                    };
                    for p in props.iter() {
                        if def.props.iter().any(|x| x.name == p.name) {
                            return fatal(format!("Cannot redeclare {cname}::${}", String::from_utf8_lossy(p.name)), *line);
                        }
                        let mut default = match p.default {
                            Some(e) => Some(self.init_value(e, *line)?),
                            None => None,
                        };
                        // zend_compile_prop_decl: an int default of a float
                        // (not int) property is stored as a float.
                        if let (Some(Init::Lit(v)), Some((m, _))) = (&mut default, &ty) {
                            if v.kind() == crate::value::IS_LONG && m.0 & TypeMask::DOUBLE != 0 && m.0 & TypeMask::LONG == 0 {
                                *v = crate::value::Zval::double(v.lval() as f64);
                            }
                        }
                        def.props.push(PropDef { name: p.name.to_vec(), default, flags, ty: ty.clone(), line: *line });
                    }
                }
                ClassMember::Method { modifiers, func } => {
                    let mut flags = member_flags(*modifiers);
                    if def.flags & CLASS_INTERFACE != 0 {
                        flags |= ACC_ABSTRACT;
                    }
                    let lc = func.name.to_ascii_lowercase();
                    if decl.kind == ClassKind::Enum && ENUM_FORBIDDEN_MAGIC.contains(&lc.as_slice()) {
                        return fatal(format!("Enum {cname} cannot include magic method {}", String::from_utf8_lossy(func.name)), func.line);
                    }
                    if def.methods.iter().any(|m| m.func.op.name.eq_ignore_ascii_case(func.name)) {
                        return fatal(format!("Cannot redeclare {cname}::{}()", String::from_utf8_lossy(func.name)), func.line);
                    }
                    let is_ctor = lc == b"__construct";
                    let (f, promoted) = self.compile_method(func, &def.name, flags, is_ctor)?;
                    for p in promoted {
                        if def.props.iter().any(|x| x.name == p.name) {
                            return fatal(format!("Cannot redeclare {cname}::${}", String::from_utf8_lossy(&p.name)), p.line);
                        }
                        let default = if p.ty.is_some() { None } else { Some(Init::Lit(crate::value::Zval::NULL)) };
                        // A readonly class makes its promoted properties readonly too.
                        let flags = if def.flags & CLASS_READONLY != 0 { p.flags | ACC_READONLY } else { p.flags };
                        def.props.push(PropDef { name: p.name, default, flags, ty: p.ty, line: p.line });
                    }
                    if let Some(ctx) = self.class_ctx.as_mut() {
                        ctx.methods.push((lc.to_vec(), flags, super::KnownFunc::of(&f.op)));
                    }
                    def.methods.push(MethodDef { func: f, flags });
                }
                ClassMember::TraitUse { traits, adaptations, line } => {
                    if decl.kind == ClassKind::Interface {
                        return fatal(format!("Cannot use traits inside of interfaces. {} is used in {cname}", String::from_utf8_lossy(traits[0].name)), *line);
                    }
                    def.traits.extend(traits.iter().map(|t| self.resolve_class(t)));
                    for a in adaptations.iter() {
                        def.trait_rules.push(match a {
                            ast::TraitAdaptation::Insteadof { trait_, method, instead_of } => TraitRule::Insteadof {
                                trait_: self.resolve_class(trait_),
                                method: method.to_vec(),
                                instead_of: instead_of.iter().map(|n| self.resolve_class(n)).collect(),
                            },
                            ast::TraitAdaptation::Alias { trait_, method, modifiers, alias } => {
                                if modifiers.has(Modifiers::STATIC) || modifiers.has(Modifiers::ABSTRACT) {
                                    let m = if modifiers.has(Modifiers::STATIC) { "static" } else { "abstract" };
                                    return fatal(format!("Cannot use '{m}' as method modifier"), *line);
                                }
                                let vis = Modifiers::PUBLIC | Modifiers::PROTECTED | Modifiers::PRIVATE;
                                let flags = if modifiers.0 & vis == 0 { 0 } else { member_flags(*modifiers) & ACC_VISIBILITY };
                                TraitRule::Alias { trait_: trait_.map(|t| self.resolve_class(&t)), method: method.to_vec(), flags, alias: alias.map(|a| a.to_vec()) }
                            }
                        });
                    }
                }
                ClassMember::EnumCase { line, name, value, .. } => {
                    if decl.kind != ClassKind::Enum {
                        return fatal("Case can only be used in enums", *line);
                    }
                    let case = String::from_utf8_lossy(name);
                    let value = match (value, decl.enum_backing.is_some()) {
                        (Some(_), false) => return fatal(format!("Case {case} of non-backed enum {cname} must not have a value"), *line),
                        (None, true) => return fatal(format!("Case {case} of backed enum {cname} must have a value"), *line),
                        (Some(e), true) => self.init_value(e, *line)?,
                        (None, false) => Init::Lit(crate::value::Zval::NULL),
                    };
                    if def.consts.iter().any(|x| x.name == *name) {
                        return fatal(format!("Cannot redefine class constant {cname}::{case}"), *line);
                    }
                    def.consts.push(ConstDef { name: name.to_vec(), value, flags: ACC_PUBLIC | CONST_CASE, line: *line });
                    def.cases.push((name.to_vec(), None));
                }
            }
        }
        Ok(())
    }

    /// An enum's backing type is checked and its readonly `name` (and
    /// `value`) properties declared (Zend's `zend_enum_add_interfaces` and
    /// `zend_enum_register_props`).
    fn enum_props(&mut self, decl: &ClassDecl<'_>, def: &mut ClassDef) -> CResult<()> {
        let ro = ACC_PUBLIC | ACC_READONLY;
        def.props.push(PropDef { name: b"name".to_vec(), default: None, flags: ro, ty: Some((TypeMask(0), "string".into())), line: decl.line });
        if let Some(t) = decl.enum_backing {
            let (mask, text) = self.type_of_pub(t, decl.line)?;
            let lc = text.to_ascii_lowercase();
            if lc != "int" && lc != "string" {
                return fatal(format!("Enum backing type must be int or string, {text} given"), decl.line);
            }
            def.flags |= if lc == "int" { CLASS_ENUM_INT } else { CLASS_ENUM_STRING };
            def.props.push(PropDef { name: b"value".to_vec(), default: None, flags: ro, ty: Some((mask, lc)), line: decl.line });
        }
        Ok(())
    }

    /// A constant expression: a literal when it folds, else init code.
    fn init_value(&mut self, e: &Expr<'_>, line: u32) -> CResult<Init> {
        if let Some(l) = self.const_expr(e)? {
            return Ok(Init::Lit(l.to_zval()));
        }
        Ok(Init::Code(self.compile_thunk(e, line)?))
    }

    /// A constant expression that does not fold, as a small function
    /// returning its value (run in the scope of the class or function
    /// that uses it).
    pub(super) fn compile_thunk(&mut self, e: &Expr<'_>, line: u32) -> CResult<Box<crate::runtime::function::Function>> {
        let mut f = FuncBuilder::new(b"{init}".to_vec(), self.filename.clone(), false);
        f.op.line_start = line;
        f.op.line_end = line;
        f.line = line;
        let outer = std::mem::replace(&mut self.f, f);
        self.stack_push(outer);
        let r = (|| {
            let n = self.compile_expr(e)?;
            self.f.line = line;
            self.f.emit(Opcode::Return, &n, &Node::Unused, &Node::Unused);
            Ok(())
        })();
        let outer = self.stack_pop();
        let f = std::mem::replace(&mut self.f, outer);
        r?;
        Ok(f.finish())
    }

    /// A method: a function whose op array names its class.
    fn compile_method(&mut self, decl: &ast::Function<'_>, class: &[u8], flags: u32, is_ctor: bool) -> CResult<(Box<crate::runtime::function::Function>, Vec<Promoted>)> {
        let mut f = FuncBuilder::new(decl.name.to_vec(), self.filename.clone(), false);
        f.op.scope_name = class.to_vec();
        f.op.line_start = decl.line;
        f.op.line_end = decl.end_line;
        f.line = decl.line;
        let outer = std::mem::replace(&mut self.f, f);
        self.stack_push(outer);
        let saved_name = std::mem::replace(&mut self.func_name, decl.name.to_vec());
        let saved_promote = std::mem::replace(&mut self.promoted, if is_ctor { Some(Vec::new()) } else { None });
        let abstract_ok = flags & ACC_ABSTRACT != 0;
        let r = self.compile_func_body_ex(decl, abstract_ok).and_then(|_| self.resolve_gotos_pub());
        self.func_name = saved_name;
        let promoted = std::mem::replace(&mut self.promoted, saved_promote).unwrap_or_default();
        let outer = self.stack_pop();
        let f = std::mem::replace(&mut self.f, outer);
        r?;
        if decl.body.is_some() && flags & ACC_ABSTRACT != 0 {
            let c = String::from_utf8_lossy(class);
            let n = String::from_utf8_lossy(decl.name);
            if self.class_ctx.as_ref().is_some_and(|c| c.kind == ClassKind::Interface) {
                return fatal(format!("Interface function {c}::{n}() cannot contain body"), decl.line);
            }
            return fatal(format!("Abstract function {c}::{n}() cannot contain body"), decl.line);
        }
        Ok((f.finish(), promoted))
    }

    /// `$this->name = $name;` for each promoted parameter (after the RECVs).
    pub fn emit_promotions(&mut self, params: &[ast::Param<'_>]) -> CResult<()> {
        for p in params {
            if p.promote.0 == 0 {
                continue;
            }
            let Some(list) = self.promoted.as_mut() else {
                return fatal("Cannot declare promoted property outside a constructor", p.line);
            };
            let mut flags = member_flags(p.promote);
            if self.class_ctx.as_ref().is_some_and(|c| c.kind == ClassKind::Interface) {
                return fatal("Cannot declare promoted property in an abstract constructor", p.line);
            }
            flags &= !(ACC_STATIC | ACC_ABSTRACT | ACC_FINAL);
            list.push(Promoted { name: p.name.to_vec(), flags, ty: None, line: p.line });
            let ty = match p.ty {
                Some(t) => Some(self.type_of_pub(t, p.line)?),
                None => None,
            };
            if let Some(last) = self.promoted.as_mut().and_then(|l| l.last_mut()) {
                last.ty = ty;
            }
            let cv = self.f.cv(p.name);
            self.f.line = p.line;
            let i = self.f.emit(Opcode::AssignObj, &Node::Unused, &Node::Const(Lit::Str(p.name.to_vec())), &Node::Unused);
            let slot = self.member_cache();
            self.f.at(i).extended_value = slot;
            self.f.emit(Opcode::OpData, &Node::Cv(cv), &Node::Unused, &Node::Unused);
        }
        Ok(())
    }
}
