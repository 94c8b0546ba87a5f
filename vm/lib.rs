//! Tusk: a PHP 8.2 engine. Source → tokens → AST → `OpArray` → execution.

pub mod compiler;
