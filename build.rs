//! Expands handlers.def into $OUT_DIR/opcodes.rs and handlers.rs (vm-gen),
//! lists the #[builtin] declarations of vm/stdlib in builtins.rs,
//! and picks the dispatch form: threaded for optimized builds, the loop form
//! below opt-level 2 (where calls aren't turned into jumps), or as
//! `TUSK_DISPATCH=loop|threaded` says.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=handlers.def");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=vm/stdlib");
    println!("cargo:rerun-if-env-changed=TUSK_DISPATCH");
    println!("cargo:rerun-if-env-changed=TUSK_GEN_DIR");
    println!("cargo::rustc-check-cfg=cfg(tusk_dispatch, values(\"loop\", \"threaded\"))");
    let opt = std::env::var("OPT_LEVEL").unwrap_or_default();
    let form = std::env::var("TUSK_DISPATCH").unwrap_or_else(|_| if opt == "0" || opt == "1" { "loop".into() } else { "threaded".into() });
    println!("cargo:rustc-cfg=tusk_dispatch=\"{form}\"");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    if let Err(e) = vm_gen::write(Path::new("handlers.def"), &out) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    match vm_gen::builtins::registry(Path::new("vm/stdlib"), "crate::stdlib") {
        Ok(text) => std::fs::write(out.join("builtins.rs"), text).expect("write builtins.rs"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
    if let Ok(dir) = std::env::var("TUSK_GEN_DIR") {
        let _ = std::fs::create_dir_all(&dir);
        for f in ["opcodes.rs", "handlers.rs", "builtins.rs"] {
            let _ = std::fs::copy(out.join(f), Path::new(&dir).join(f));
        }
    }
}
