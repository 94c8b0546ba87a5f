//! The op array under construction: oplines, literals, CVs, temporaries,
//! runtime-cache slots, and the loop stack for break/continue.
//!
//! Operands are `Node`s (Zend's `znode`): a compile-time constant, a CV, or
//! a temporary. Temporaries are numbered as Zend numbers them: every new one
//! gets the next number and none is reused; they are stored relative to the
//! first temporary and renumbered past the CVs when the op array is finished
//! (CVs keep being discovered until then).

use crate::ops::{Op, OpArray, Opcode, IS_CONST, IS_CV, IS_TMP_VAR, IS_UNUSED, IS_VAR};
use crate::runtime::function::Function;
use crate::value::{ZArray, ZString, Zval};

/// A compile-time constant value.
#[derive(Clone, Debug, PartialEq)]
pub enum Lit {
    Null,
    Bool(bool),
    Long(i64),
    Double(f64),
    Str(Vec<u8>),
    Array(Vec<(Key, Lit)>),
}

/// A constant array's key (PHP normalizes numeric strings to ints).
#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    Int(i64),
    Str(Vec<u8>),
}

impl Lit {
    /// PHP's truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Lit::Null => false,
            Lit::Bool(b) => *b,
            Lit::Long(i) => *i != 0,
            Lit::Double(d) => *d != 0.0,
            Lit::Str(s) => !(s.is_empty() || s == b"0"),
            Lit::Array(a) => !a.is_empty(),
        }
    }

    /// The Zval kind this constant has at run time.
    pub fn kind(&self) -> u8 {
        use crate::value::*;
        match self {
            Lit::Null => IS_NULL,
            Lit::Bool(false) => IS_FALSE,
            Lit::Bool(true) => IS_TRUE,
            Lit::Long(_) => IS_LONG,
            Lit::Double(_) => IS_DOUBLE,
            Lit::Str(_) => IS_STRING,
            Lit::Array(_) => IS_ARRAY,
        }
    }

    /// Builds the run-time value (owned by the caller: a literal table).
    pub fn to_zval(&self) -> Zval {
        match self {
            Lit::Null => Zval::NULL,
            Lit::Bool(b) => Zval::bool(*b),
            Lit::Long(i) => Zval::long(*i),
            Lit::Double(d) => Zval::double(*d),
            Lit::Str(s) => Zval::string(ZString::new(s)),
            Lit::Array(items) => {
                let a = ZArray::new();
                for (k, v) in items {
                    let v = v.to_zval();
                    // SAFETY: `a` is a fresh array owned here; keys are
                    // new strings whose reference `update_str` takes its own of.
                    unsafe {
                        match k {
                            Key::Int(i) => {
                                (*a).update_int(*i, v);
                            }
                            Key::Str(s) => {
                                let ks = ZString::new(s);
                                (*a).update_str(ks, v);
                                Zval::string(ks).ptr_dtor();
                            }
                        }
                    }
                }
                Zval::array(a)
            }
        }
    }
}

/// Turns a string key into an int key when PHP would (`"12"` → 12).
pub fn normalize_key(s: &[u8]) -> Key {
    let ok = match s {
        [] => false,
        [b'0'] => true,
        [b'-', rest @ ..] => !rest.is_empty() && rest[0] != b'0' && rest.iter().all(u8::is_ascii_digit),
        _ => s[0] != b'0' && s.iter().all(u8::is_ascii_digit),
    };
    if ok {
        if let Ok(i) = std::str::from_utf8(s).unwrap_or("x").parse::<i64>() {
            return Key::Int(i);
        }
    }
    Key::Str(s.to_vec())
}

/// An operand: Zend's `znode`.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Unused,
    Const(Lit),
    Tmp(u32),
    Var(u32),
    Cv(u32),
}

impl Node {
    pub fn kind(&self) -> u8 {
        match self {
            Node::Unused => IS_UNUSED,
            Node::Const(_) => IS_CONST,
            Node::Tmp(_) => IS_TMP_VAR,
            Node::Var(_) => IS_VAR,
            Node::Cv(_) => IS_CV,
        }
    }
    pub fn is_tmpvar(&self) -> bool {
        matches!(self, Node::Tmp(_) | Node::Var(_))
    }
}

/// What leaving a loop early must free: FE_FREE of the foreach iterator, or
/// FREE of a switch subject held in a temporary.
#[derive(Clone, Debug)]
pub struct LoopVar {
    pub free: Option<(Opcode, Node)>,
    /// JMPs to patch to the loop's end (`break`).
    pub breaks: Vec<u32>,
    /// JMPs to patch to the loop's continue target.
    pub conts: Vec<u32>,
    pub is_switch: bool,
}

/// One entry of Zend's `loop_var_stack`: what leaving the constructs open
/// here (return, break, continue, goto) must do on the way out.
#[derive(Clone, Debug)]
pub enum Unwind {
    /// A loop or switch; `Some`: the temporary to free (FE_FREE/FREE).
    Loop(Option<(Opcode, Node)>),
    /// Inside a try (or catch) with a finally: FAST_CALL into it with the
    /// var `var`; `try_index` is the try/catch entry.
    FastCall { var: Node, try_index: u32 },
    /// Inside a finally block: leaving it drops the exception its FAST_CALL
    /// var holds (DISCARD_EXCEPTION).
    Discard { var: Node },
}

#[derive(Clone, Copy)]
pub struct Mark {
    pub ops: u32,
    t: u32,
    literals: usize,
    cache_slots: u32,
}

/// A `goto` waiting for its label (resolved when the function is done).
pub struct PendingGoto {
    pub label: Vec<u8>,
    /// The JMP.
    pub jump: u32,
    /// The first of the loop frees emitted before the JMP.
    pub frees_from: u32,
    /// Ids of the loops open at the goto, outermost first.
    pub path: Vec<u32>,
    pub line: u32,
}

/// Marks a temporary number as "not renumbered yet" (they are relative to
/// the first temporary until `finish`).
pub struct FuncBuilder {
    pub op: OpArray,
    /// Temporaries created so far (Zend's `T`).
    pub t: u32,
    pub loops: Vec<LoopVar>,
    /// The line of the construct being compiled (stamped on new oplines).
    pub line: u32,
    /// True for the main script's code.
    pub is_main: bool,
    pub has_return_type: bool,
    /// `function &f()`: returns use RETURN_BY_REF.
    pub returns_ref: bool,
    /// The body contains `yield` (`ZEND_ACC_GENERATOR`): GENERATOR_CREATE
    /// after the parameters, every `return` a GENERATOR_RETURN.
    pub is_generator: bool,
    /// Ids of the open loops, outermost first (for goto).
    pub loop_path: Vec<u32>,
    pub loop_seq: u32,
    /// Which loop ids free a temporary when left.
    pub loop_frees: Vec<u32>,
    pub gotos: Vec<PendingGoto>,
    /// Labels: name, opline, loop path.
    pub labels: Vec<(Vec<u8>, u32, Vec<u32>)>,
    /// Zend's `loop_var_stack` (innermost last).
    pub unwind: Vec<Unwind>,
    /// The try/catch entry whose try or catch blocks are being compiled
    /// (Zend's `CG(context).try_catch_offset`).
    pub try_catch_offset: Option<u32>,
    /// A finally block has been seen (`ZEND_ACC_HAS_FINALLY_BLOCK`).
    pub has_finally: bool,
    /// The JMPs of break, continue and goto, checked against finally blocks
    /// once the function is done (`zend_check_finally_breakout`).
    pub jump_outs: Vec<u32>,
}

impl FuncBuilder {
    pub fn new(name: Vec<u8>, filename: std::sync::Arc<str>, is_main: bool) -> FuncBuilder {
        FuncBuilder {
            op: OpArray::new(name, filename),
            t: 0,
            loops: Vec::new(),
            line: 1,
            is_main,
            has_return_type: false,
            returns_ref: false,
            is_generator: false,
            loop_path: Vec::new(),
            loop_seq: 0,
            loop_frees: Vec::new(),
            gotos: Vec::new(),
            labels: Vec::new(),
            unwind: Vec::new(),
            try_catch_offset: None,
            has_finally: false,
            jump_outs: Vec::new(),
        }
    }

    /// How many of the `left` innermost loops of a goto free a temporary.
    pub fn loops_with_free_left(&self, g: &PendingGoto, left: usize) -> u32 {
        let n = g.path.len();
        g.path[n - left..].iter().filter(|id| self.loop_frees.contains(id)).count() as u32
    }

    pub fn next_op(&self) -> u32 {
        self.op.ops.len() as u32
    }

    /// A new temporary number (relative; see `finish`).
    pub fn temp(&mut self) -> u32 {
        let t = self.t;
        self.t += 1;
        t
    }
    pub fn tmp(&mut self) -> Node {
        Node::Tmp(self.temp())
    }
    pub fn var(&mut self) -> Node {
        Node::Var(self.temp())
    }

    /// The CV of variable `name` (without `$`), created on first sight.
    pub fn cv(&mut self, name: &[u8]) -> u32 {
        if let Some(i) = self.op.cv_names.iter().position(|n| n == name) {
            return i as u32;
        }
        self.op.cv_names.push(name.to_vec());
        (self.op.cv_names.len() - 1) as u32
    }

    pub fn cache_slot(&mut self) -> u32 {
        let s = self.op.cache_slots;
        self.op.cache_slots += 1;
        s
    }

    pub fn literal(&mut self, l: &Lit) -> u32 {
        self.op.literals.push(l.to_zval());
        (self.op.literals.len() - 1) as u32
    }

    fn set(&mut self, n: &Node) -> (u8, u32) {
        match n {
            Node::Unused => (IS_UNUSED, 0),
            Node::Const(l) => (IS_CONST, self.literal(l)),
            Node::Tmp(t) | Node::Var(t) => (n.kind(), *t),
            Node::Cv(c) => (IS_CV, *c),
        }
    }

    /// Appends an opline; returns its index.
    pub fn emit(&mut self, code: Opcode, op1: &Node, op2: &Node, result: &Node) -> u32 {
        let mut o = Op::new(code, self.line);
        (o.op1_type, o.op1) = self.set(op1);
        (o.op2_type, o.op2) = self.set(op2);
        (o.result_type, o.result) = self.set(result);
        self.op.ops.push(o);
        self.next_op() - 1
    }

    /// Emits with a new TMP result and returns it.
    pub fn emit_tmp(&mut self, code: Opcode, op1: &Node, op2: &Node) -> Node {
        let r = self.tmp();
        self.emit(code, op1, op2, &r);
        r
    }
    /// Emits with a new VAR result and returns it.
    pub fn emit_var(&mut self, code: Opcode, op1: &Node, op2: &Node) -> Node {
        let r = self.var();
        self.emit(code, op1, op2, &r);
        r
    }

    /// An opline with raw operands (NUM / jump targets).
    pub fn emit_raw(&mut self, code: Opcode, op1: u32, op2: u32) -> u32 {
        let mut o = Op::new(code, self.line);
        o.op1 = op1;
        o.op2 = op2;
        self.op.ops.push(o);
        self.next_op() - 1
    }

    pub fn at(&mut self, i: u32) -> &mut Op {
        &mut self.op.ops[i as usize]
    }

    /// A jump with an unresolved target; patch it with `patch_here`/`patch_to`.
    pub fn emit_jump(&mut self) -> u32 {
        self.emit_raw(Opcode::Jmp, 0, 0)
    }
    /// JMPZ/JMPNZ(/_EX) on `cond`, target unresolved.
    pub fn emit_cond_jump(&mut self, code: Opcode, cond: &Node) -> u32 {
        self.emit(code, cond, &Node::Unused, &Node::Unused)
    }

    /// Points the jump at `i` to `target`.
    pub fn patch_to(&mut self, i: u32, target: u32) {
        let o = &mut self.op.ops[i as usize];
        match o.opcode() {
            Opcode::Jmp => o.op1 = target,
            Opcode::FeFetchR | Opcode::FeFetchRw => o.extended_value = target,
            _ => o.op2 = target,
        }
    }
    /// Points the jump at `i` to the next opline to be emitted.
    pub fn patch_here(&mut self, i: u32) {
        let n = self.next_op();
        self.patch_to(i, n);
    }

    /// Sets an opline's result to `n` (after the fact, as Zend's SET_NODE).
    pub fn set_result(&mut self, i: u32, n: &Node) {
        let (k, v) = self.set(n);
        let o = &mut self.op.ops[i as usize];
        o.result_type = k;
        o.result = v;
    }

    /// `zend_do_free`: discard an expression's value (an expression
    /// statement). Results of assignments and increments just become unused;
    /// `$i++` becomes `++$i`; other temporaries get a FREE.
    pub fn free(&mut self, n: &Node) {
        let (t, is_var) = match n {
            Node::Tmp(t) => (*t, false),
            Node::Var(t) => (*t, true),
            _ => return,
        };
        let mut i = self.op.ops.len();
        while i > 0 && matches!(self.op.ops[i - 1].opcode(), Opcode::EndSilence | Opcode::OpData) {
            i -= 1;
        }
        if i == 0 {
            self.emit(Opcode::Free, n, &Node::Unused, &Node::Unused);
            return;
        }
        let want = if is_var { IS_VAR } else { IS_TMP_VAR };
        let last = &mut self.op.ops[i - 1];
        if last.result_type == want && last.result == t {
            if is_var {
                last.result_type = IS_UNUSED;
                return;
            }
            match last.opcode() {
                Opcode::Bool | Opcode::BoolNot => return,
                Opcode::PostInc | Opcode::PostDec => {
                    last.opcode = if last.opcode() == Opcode::PostInc { Opcode::PreInc } else { Opcode::PreDec } as u8;
                    last.result_type = IS_UNUSED;
                    return;
                }
                Opcode::PostIncObj | Opcode::PostDecObj | Opcode::PostIncStaticProp | Opcode::PostDecStaticProp => {
                    last.opcode = match last.opcode() {
                        Opcode::PostIncObj => Opcode::PreIncObj,
                        Opcode::PostDecObj => Opcode::PreDecObj,
                        Opcode::PostIncStaticProp => Opcode::PreIncStaticProp,
                        _ => Opcode::PreDecStaticProp,
                    } as u8;
                    last.result_type = IS_UNUSED;
                    return;
                }
                Opcode::PreIncObj | Opcode::PreDecObj | Opcode::PreIncStaticProp | Opcode::PreDecStaticProp
                | Opcode::AssignObj | Opcode::AssignObjOp | Opcode::AssignStaticProp | Opcode::AssignStaticPropOp => {
                    last.result_type = IS_UNUSED;
                    return;
                }
                Opcode::Assign | Opcode::AssignDim | Opcode::AssignOp | Opcode::AssignDimOp | Opcode::PreInc | Opcode::PreDec => {
                    last.result_type = IS_UNUSED;
                    return;
                }
                _ => {}
            }
        } else if is_var {
            // A VAR defined earlier: only FETCH_LIST containers need a FREE.
            for j in (0..i).rev() {
                let o = &self.op.ops[j];
                if matches!(o.opcode(), Opcode::FetchListR | Opcode::FetchListW) && o.op1_type == IS_VAR && o.op1 == t {
                    break;
                }
                if o.result_type == IS_VAR && o.result == t {
                    // `new C;` as a statement: the object is freed (Zend's
                    // zend_do_free).
                    if o.opcode() == Opcode::New {
                        break;
                    }
                    return;
                }
            }
        }
        self.emit(Opcode::Free, n, &Node::Unused, &Node::Unused);
    }

    /// A point to come back to when code compiled speculatively is dropped.
    pub fn mark(&self) -> Mark {
        Mark { ops: self.next_op(), t: self.t, literals: self.op.literals.len(), cache_slots: self.op.cache_slots }
    }
    pub fn rewind(&mut self, m: Mark) {
        self.op.ops.truncate(m.ops as usize);
        self.t = m.t;
        for l in self.op.literals.drain(m.literals..) {
            // SAFETY: literals are owned by the op array under construction.
            unsafe { crate::value::free_literal(l) };
        }
        self.op.cache_slots = m.cache_slots;
    }

    /// Renumbers temporaries past the CVs, computes live ranges and freezes
    /// the op array.
    pub fn finish(mut self) -> Box<Function> {
        let ncv = self.op.cv_names.len() as u32;
        for o in self.op.ops.iter_mut() {
            if o.op1_type & (IS_TMP_VAR | IS_VAR) != 0 {
                o.op1 += ncv;
            }
            if o.op2_type & (IS_TMP_VAR | IS_VAR) != 0 {
                o.op2 += ncv;
            }
            if o.result_type & (IS_TMP_VAR | IS_VAR) != 0 {
                o.result += ncv;
            }
        }
        // FAST_CALL op1: the try/catch entry, now its finally block (pass_two).
        for o in self.op.ops.iter_mut() {
            if o.opcode() == Opcode::FastCall {
                o.op1 = self.op.try_catch.get(o.op1 as usize).map_or(0, |t| t.finally_op);
            }
        }
        self.op.num_tmps = self.t;
        self.op.live_ranges = super::super::live_range::compute(&self.op.ops, ncv, self.t);
        self.op.finalize();
        Box::new(Function { op: self.op, builtin: None, decl: None })
    }
}
