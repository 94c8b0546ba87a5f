//! `vm-gen expand NAME [--op1 K] [--op2 K] [--spec S] [--def PATH]`: print the
//! formatted instances of one handler.
//! `vm-gen list [--def PATH]`: print the instances of every opcode.

use std::process::ExitCode;

const USAGE: &str = "usage:
  vm-gen expand NAME [--op1 KIND] [--op2 KIND] [--spec SPEC] [--def PATH]
  vm-gen list [--def PATH]
(default --def: handlers.def in the current directory)";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<String, String> {
    let mut it = args.into_iter();
    let cmd = it.next().ok_or(USAGE)?;
    let mut positional = Vec::new();
    let mut filter = vm_gen::Filter::default();
    let mut def = String::from("handlers.def");
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().ok_or(format!("{flag} needs a value\n{USAGE}"));
        match a.as_str() {
            "--op1" => filter.op1 = Some(value("--op1")?),
            "--op2" => filter.op2 = Some(value("--op2")?),
            "--spec" => filter.spec = Some(value("--spec")?),
            "--def" => def = value("--def")?,
            "-h" | "--help" => return Ok(format!("{USAGE}\n")),
            s if s.starts_with("--") => return Err(format!("unknown option {s}\n{USAGE}")),
            _ => positional.push(a),
        }
    }
    let src = std::fs::read_to_string(&def).map_err(|e| format!("{def}: {e}"))?;
    let name = std::path::Path::new(&def)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| def.clone());
    match (cmd.as_str(), positional.as_slice()) {
        ("expand", [opcode]) => vm_gen::expand_one(&src, &name, opcode, &filter).map_err(|e| e.to_string()),
        ("list", []) => {
            let g = vm_gen::generate(&src, &name).map_err(|e| e.to_string())?;
            let mut out = String::new();
            for op in &g.report.per_opcode {
                if op.has_handler {
                    out += &format!("{} ({})\n", op.opcode, op.instances.len());
                } else {
                    out += &format!("{} (no handler)\n", op.opcode);
                }
                for i in &op.instances {
                    out += &format!("  {}\n", i.name);
                }
            }
            out += &format!("{}\n", g.report);
            Ok(out)
        }
        _ => Err(USAGE.to_string()),
    }
}
