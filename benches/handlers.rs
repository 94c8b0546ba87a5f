//! Handler microbenchmarks: one criterion group per opcode, one id per
//! instance (`ADD/SPEC_CV_CONST/int+int`). Each case is a straight-line op
//! array of the handler under test repeated many times, so the per-opline
//! cost of different specializations compares within one run.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tusk::api::Engine;

/// Builds PHP code that repeats `line` `n` times inside a function and calls
/// it once per iteration.
fn program(setup: &str, line: &str, n: usize) -> Vec<u8> {
    let mut src = String::from("<?php\nfunction bench() {\n");
    src.push_str(setup);
    src.push('\n');
    for _ in 0..n {
        src.push_str(line);
        src.push('\n');
    }
    src.push_str("}\nbench();\n");
    src.into_bytes()
}

fn bench_case(c: &mut Criterion, group: &str, id: &str, setup: &str, line: &str) {
    const N: usize = 1000;
    let engine = Engine::new();
    let prog = engine.compile(&program(setup, line, N), "bench.php").expect("bench code compiles");
    let mut ctx = engine.context();
    ctx.capture_output();
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(id, |b| {
        b.iter(|| {
            ctx.run(&prog).expect("bench code runs");
        })
    });
    g.finish();
}

fn add(c: &mut Criterion) {
    bench_case(c, "ADD", "SPEC_CV_CONST/int+int", "$a = 1;", "$r = $a + 2;");
    bench_case(c, "ADD", "SPEC_CV_CV/int+int", "$a = 1; $b = 2;", "$r = $a + $b;");
    bench_case(c, "ADD", "SPEC_CV_CV/float+float", "$a = 1.5; $b = 2.5;", "$r = $a + $b;");
    bench_case(c, "ADD", "SPEC_TMPVAR_CONST/int+int", "$a = 1;", "$r = ($a * 1) + 2;");
    bench_case(c, "ADD", "SPEC_CV_CONST/string+int (slow)", "$a = '1';", "$r = $a + 2;");
}

fn is_smaller(c: &mut Criterion) {
    bench_case(c, "IS_SMALLER", "SPEC_CV_CONST_JMPZ/int", "$a = 1;", "if ($a < 2) { }");
    bench_case(c, "IS_SMALLER", "SPEC_CV_CV_JMPZ/int", "$a = 1; $b = 2;", "if ($a < $b) { }");
    bench_case(c, "IS_SMALLER", "SPEC_CV_CV/int (result used)", "$a = 1; $b = 2;", "$r = $a < $b;");
    bench_case(c, "IS_SMALLER", "SPEC_CV_CV_JMPZ/float", "$a = 1.5; $b = 2.5;", "if ($a < $b) { }");
}

criterion_group!(handlers, add, is_smaller);
criterion_main!(handlers);
