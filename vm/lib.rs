//! Tusk: a PHP 8.2 engine. Source → tokens → AST → `OpArray` → execution.
//!
//! The embedding API lives in [`api`]; the rest is the engine's inside,
//! public so the CLI, the benches and the tests can reach it.

pub mod api;
pub mod compiler;
pub mod dump;
pub mod exec;
pub mod ops;
pub mod runtime;
pub mod stdlib;
pub mod value;
