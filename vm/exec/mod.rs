//! The executor: VM stack and frames, threaded dispatch, the generated
//! handlers and their slow paths, calls and exceptions.
//! Depends on `ops`, `value` and `runtime`; never on the compiler.

pub mod dispatch;
pub mod frame;
pub mod generator;
pub mod handlers;
pub mod operand;
pub mod run;
pub mod select;
pub mod slow;
pub mod stack;
pub mod symtab;
pub mod vm;

pub use frame::Frame;
pub use vm::Vm;

use crate::ops::Op;
use crate::value::Zval;

/// Every handler's signature.
pub type Handler = unsafe fn(ip: *const Op, fp: *mut Zval, vm: *mut Vm) -> Ret;

/// Why a handler left the chain.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Ret {
    /// Loop form only: continue at `vm.ip` / `vm.fp`.
    Continue,
    /// The top frame returned.
    Leave,
    /// An interrupt is pending (resume at `vm.ip` / `vm.fp`).
    Interrupt,
    /// The script ended with an error or `exit` (details in the Vm).
    Stop,
}

/// Marker that an exception is pending in the Vm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thrown;

/// Placeholder handler of an opline whose handler has not been selected.
pub unsafe fn unselected_handler(ip: *const Op, _fp: *mut Zval, vm: *mut Vm) -> Ret {
    (*vm).fatal_internal(&format!("no handler selected for {}", (*ip).opcode().name()));
    Ret::Stop
}

/// Everything generated handlers refer to.
pub mod prelude {
    pub use super::dispatch;
    pub use super::frame::Frame;
    pub use super::operand;
    pub use super::slow;
    pub use super::vm::Vm;
    pub use super::{Handler, Ret, Thrown};
    pub use crate::ops::*;
    pub use crate::value::*;
}
