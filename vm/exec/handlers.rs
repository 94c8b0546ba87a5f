//! The generated handlers and the handler table (vm-gen, from handlers.def).
#![allow(non_snake_case, unused_labels, unused_unsafe, unused_variables, unused_mut, unused_braces, unreachable_code, clippy::all)]

include!(concat!(env!("OUT_DIR"), "/handlers.rs"));
