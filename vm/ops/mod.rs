//! Oplines and op arrays: Zend's three-address form.
//!
//! An `OpArray` is built by the compiler in *compile form* (CONST operands are
//! literal indexes, TMP/VAR/CV operands slot numbers, jump targets opline
//! indexes) and then frozen by [`OpArray::finalize`] into *run form*: every
//! operand becomes a byte offset, exactly as Zend does on 64-bit hosts:
//! TMP/VAR/CV are offsets from the frame pointer, CONST and jump targets are
//! offsets from the opline itself (oplines and literals share one
//! allocation). A handler then reaches any operand with one add.
//! Depends on `value` only (and names the executor's handler type).

pub mod opcode;

use crate::exec::Handler;
use crate::value::{GcHeader, ZArray, ZString, Zval, IS_ARRAY, IS_STRING};
pub use opcode::{Opcode, OpcodeMeta, OPCODE_META};

/// Operand kinds, Zend's values (they are bit flags).
pub const IS_CONST: u8 = 1;
pub const IS_TMP_VAR: u8 = 2;
pub const IS_VAR: u8 = 4;
pub const IS_UNUSED: u8 = 8;
pub const IS_CV: u8 = 16;
/// Metadata-only kinds of non-value operands.
pub const KIND_JMP_ADDR: u16 = 32;
pub const KIND_NUM: u16 = 64;

/// Size of the frame header in front of the slots (see `exec::frame`).
pub const FRAME_HEADER: u32 = 80;

/// Byte offset of slot `n` (CVs first, then TMP/VARs) from the frame pointer.
#[inline(always)]
pub const fn slot_offset(n: u32) -> u32 {
    FRAME_HEADER + n * 16
}
#[inline(always)]
pub const fn offset_slot(off: u32) -> u32 {
    (off - FRAME_HEADER) / 16
}

/// One opline: 32 bytes, as Zend's `zend_op`.
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Op {
    pub handler: Handler,
    pub op1: u32,
    pub op2: u32,
    pub result: u32,
    pub extended_value: u32,
    pub lineno: u32,
    pub opcode: u8,
    pub op1_type: u8,
    pub op2_type: u8,
    pub result_type: u8,
}

const _: () = assert!(core::mem::size_of::<Op>() == 32);

impl Op {
    pub fn new(opcode: Opcode, lineno: u32) -> Op {
        Op {
            handler: crate::exec::unselected_handler,
            op1: 0,
            op2: 0,
            result: 0,
            extended_value: 0,
            lineno,
            opcode: opcode as u8,
            op1_type: IS_UNUSED,
            op2_type: IS_UNUSED,
            result_type: IS_UNUSED,
        }
    }
    #[inline(always)]
    pub fn opcode(&self) -> Opcode {
        // SAFETY: `opcode` is only ever written from an `Opcode`.
        unsafe { core::mem::transmute::<u8, Opcode>(self.opcode) }
    }
}

/// What a live temporary holds, so exception unwinding can free it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LiveKind {
    /// A plain TMP/VAR value.
    Tmp,
    /// A foreach iterator (FE_RESET result).
    Loop,
    /// A saved `@` error level (BEGIN_SILENCE result).
    Silence,
    /// Rope parts under construction.
    Rope,
    /// An object under construction (NEW result).
    New,
}

/// Slot `var` holds a live value from opline `start` (exclusive: the opline
/// that defines it) until `end` (exclusive: the opline that consumes it).
#[derive(Clone, Copy, Debug)]
pub struct LiveRange {
    pub var: u32,
    pub start: u32,
    pub end: u32,
    pub kind: LiveKind,
}

/// A try block and where its catch and finally start (opline indexes; 0 = none).
#[derive(Clone, Copy, Debug, Default)]
pub struct TryCatch {
    pub try_op: u32,
    pub catch_op: u32,
    pub finally_op: u32,
    pub finally_end: u32,
}

/// A parameter's declared type, as far as the first compiler checks them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TypeMask(pub u32);

impl TypeMask {
    pub const NULL: u32 = 1 << 1;
    pub const FALSE: u32 = 1 << 2;
    pub const TRUE: u32 = 1 << 3;
    pub const BOOL: u32 = Self::FALSE | Self::TRUE;
    pub const LONG: u32 = 1 << 4;
    pub const DOUBLE: u32 = 1 << 5;
    pub const STRING: u32 = 1 << 6;
    pub const ARRAY: u32 = 1 << 7;
    pub const OBJECT: u32 = 1 << 8;
    pub const VOID: u32 = 1 << 14;
    /// Class names (or `callable`) are part of the type: `ArgInfo::classes`
    /// says which; values they take are checked on the slow path.
    pub const CLASSES: u32 = 1 << 15;
    /// `never` (a return type).
    pub const NEVER: u32 = 1 << 16;
    pub const MIXED: u32 = 0x3fe;
    pub fn is_set(self) -> bool {
        self.0 != 0
    }
    pub fn allows(self, kind: u8) -> bool {
        self.0 & (1 << kind) != 0
    }
}

#[derive(Clone, Debug, Default)]
pub struct ArgInfo {
    pub name: Vec<u8>,
    pub ty: TypeMask,
    /// The type as written, for messages (`?int`, `string`).
    pub ty_text: String,
    pub by_ref: bool,
    pub variadic: bool,
    /// Lowercase class names of the type (`self`, `static`, `parent`,
    /// `callable` and `traversable` for `iterable` included).
    pub classes: Vec<Vec<u8>>,
}

/// A compiled function body (or the script's main code).
pub struct OpArray {
    /// Function name as declared; empty for the main script.
    pub name: Vec<u8>,
    /// The class of a method (as declared); empty for functions.
    pub scope_name: Vec<u8>,
    pub filename: std::sync::Arc<str>,
    pub line_start: u32,
    pub line_end: u32,
    /// Oplines in compile form until `finalize`, then the run-form copy lives
    /// in `code` and this vector is kept for the dump.
    pub ops: Vec<Op>,
    pub literals: Vec<Zval>,
    pub cv_names: Vec<Vec<u8>>,
    /// Number of TMP/VAR slots (after the CVs).
    pub num_tmps: u32,
    pub num_args: u32,
    pub required_args: u32,
    pub arg_info: Vec<ArgInfo>,
    pub return_type: Option<ArgInfo>,
    pub live_ranges: Vec<LiveRange>,
    pub try_catch: Vec<TryCatch>,
    /// `static` variables: (name, initial value) in declaration order.
    pub static_vars: Vec<(Vec<u8>, Zval)>,
    /// Functions declared inside this code at run time (DECLARE_FUNCTION op1 indexes them).
    pub declared: Vec<Box<crate::runtime::function::Function>>,
    /// Classes declared inside this code at run time (DECLARE_CLASS op1 indexes them).
    pub declared_classes: Vec<Box<crate::runtime::class::ClassDef>>,
    /// Parameter defaults that are constant expressions evaluated at run
    /// time (`$b = DEF * 2`, `$o = new C`): RECV_INIT's op2 is then a
    /// constant-AST literal (kind `IS_CONSTANT_AST`) holding the index here.
    pub default_thunks: Vec<Box<crate::runtime::function::Function>>,
    pub cache_slots: u32,
    pub strict_types: bool,
    /// Immutable boxes (strings, arrays) made for literals and static
    /// initial values; freed when the op array is dropped.
    pool: Vec<*mut GcHeader>,
    /// Run form: oplines followed by literals in one 16-aligned block.
    code: *mut u8,
    code_len: usize,
}

// SAFETY: after `finalize` an OpArray is immutable; its literals are
// immutable (never refcounted) boxes, so sharing them across threads never
// touches a counter.
unsafe impl Send for OpArray {}
unsafe impl Sync for OpArray {}

impl OpArray {
    pub fn new(name: Vec<u8>, filename: std::sync::Arc<str>) -> OpArray {
        OpArray {
            name,
            scope_name: Vec::new(),
            filename,
            line_start: 0,
            line_end: 0,
            ops: Vec::new(),
            literals: Vec::new(),
            cv_names: Vec::new(),
            num_tmps: 0,
            num_args: 0,
            required_args: 0,
            arg_info: Vec::new(),
            return_type: None,
            live_ranges: Vec::new(),
            try_catch: Vec::new(),
            static_vars: Vec::new(),
            declared: Vec::new(),
            declared_classes: Vec::new(),
            default_thunks: Vec::new(),
            cache_slots: 0,
            strict_types: false,
            pool: Vec::new(),
            code: core::ptr::null_mut(),
            code_len: 0,
        }
    }

    /// Bytes a frame of this function needs (header + CVs + TMP/VARs).
    #[inline(always)]
    pub fn frame_size(&self) -> usize {
        FRAME_HEADER as usize + (self.cv_names.len() + self.num_tmps as usize) * 16
    }
    #[inline(always)]
    pub fn num_slots(&self) -> u32 {
        self.cv_names.len() as u32 + self.num_tmps
    }

    /// First run-form opline. Valid after `finalize`.
    #[inline(always)]
    pub fn entry(&self) -> *const Op {
        self.code as *const Op
    }
    pub fn is_finalized(&self) -> bool {
        !self.code.is_null()
    }

    /// Index of a run-form opline pointer within this op array.
    pub fn op_index(&self, ip: *const Op) -> u32 {
        ((ip as usize - self.code as usize) / core::mem::size_of::<Op>()) as u32
    }

    /// Freezes the op array into run form: selects handlers, turns operands
    /// into byte offsets and makes literals immutable.
    pub fn finalize(&mut self) {
        assert!(self.code.is_null(), "OpArray finalized twice");
        for lit in self.literals.iter_mut() {
            make_immutable(lit, &mut self.pool);
        }
        for (_, v) in self.static_vars.iter_mut() {
            make_immutable(v, &mut self.pool);
        }
        crate::exec::select::select_handlers(&mut self.ops);
        let n_ops = self.ops.len().max(1);
        let ops_bytes = n_ops * 32;
        let len = ops_bytes + self.literals.len() * 16;
        let layout = std::alloc::Layout::from_size_align(len, 16).expect("op array layout");
        // SAFETY: len > 0 (at least one op slot).
        let code = unsafe { std::alloc::alloc_zeroed(layout) };
        if code.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        // SAFETY: `code` has room for n_ops oplines followed by the literals.
        unsafe {
            let lits = code.add(ops_bytes) as *mut Zval;
            for (i, lit) in self.literals.iter().enumerate() {
                lits.add(i).write(*lit);
            }
            for (i, op) in self.ops.iter().enumerate() {
                let mut run = *op;
                let here = code.add(i * 32) as isize;
                let meta = op.opcode().meta();
                run.op1 = run_operand(op.op1, op.op1_type, meta.op1, here, lits as isize, code as isize);
                run.op2 = run_operand(op.op2, op.op2_type, meta.op2, here, lits as isize, code as isize);
                if op.result_type & (IS_TMP_VAR | IS_VAR | IS_CV) != 0 {
                    run.result = slot_offset(op.result);
                }
                if matches!(op.opcode(), Opcode::FeFetchR | Opcode::FeFetchRw) {
                    // The loop's exit (`slow::iter::fe_end`): a byte offset from this opline.
                    run.extended_value = (code as isize + op.extended_value as isize * 32 - here) as i32 as u32;
                }
                (code.add(i * 32) as *mut Op).write(run);
            }
        }
        self.code = code;
        self.code_len = len;
    }
}

fn run_operand(v: u32, ty: u8, meta_kinds: u16, here: isize, lits: isize, code: isize) -> u32 {
    match ty {
        IS_CONST => (lits + v as isize * 16 - here) as i32 as u32,
        IS_TMP_VAR | IS_VAR | IS_CV => slot_offset(v),
        _ if meta_kinds & KIND_JMP_ADDR != 0 => (code + v as isize * 32 - here) as i32 as u32,
        _ => v,
    }
}

/// Turns a freshly built literal into an immutable shared value; the boxes
/// it makes go to `pool`.
pub fn make_immutable(lit: &mut Zval, pool: &mut Vec<*mut GcHeader>) {
    match lit.kind() {
        IS_STRING if lit.is_refcounted() => {
            let s = lit.str();
            // SAFETY: the compiler created this string and owns its only reference.
            let imm = unsafe { ZString::new_immutable((*s).bytes()) };
            pool.push(imm as *mut GcHeader);
            // SAFETY: `lit` owns one reference to `s`.
            unsafe { lit.ptr_dtor() };
            *lit = Zval::string(imm);
        }
        IS_ARRAY if lit.is_refcounted() => {
            // SAFETY: the compiler built this array and owns its only reference.
            match unsafe { ZArray::into_immutable(lit.arr(), pool) } {
                Ok(a) => *lit = Zval::array(a),
                Err(_) => {}
            }
        }
        _ => {}
    }
}

impl Drop for OpArray {
    fn drop(&mut self) {
        for lit in self.literals.iter().chain(self.static_vars.iter().map(|(_, v)| v)) {
            if lit.is_refcounted() {
                // SAFETY: a literal that could not be made immutable is owned here alone.
                unsafe { lit.ptr_dtor() };
            }
        }
        for h in self.pool.drain(..) {
            // SAFETY: every pool box was made by `make_immutable` for this op
            // array, and nothing refers to it once the op array is dropped.
            unsafe { crate::value::array::free_immutable_box(h) };
        }
        if !self.code.is_null() {
            let layout = std::alloc::Layout::from_size_align(self.code_len, 16).expect("layout");
            // SAFETY: allocated in `finalize` with this layout.
            unsafe { std::alloc::dealloc(self.code, layout) };
        }
    }
}
