//! Function and constant tables, errors and exceptions as the executor and
//! the builtins report them.

pub mod error;
pub mod function;
pub mod class;
pub mod classes;
pub mod builtin_classes;
