//! The embedding API: compile once, run many; contexts side by side.

use tusk::api::{Engine, Error};

fn run(src: &str) -> (Result<(), Error>, String) {
    let engine = Engine::new();
    let prog = engine.compile(src.as_bytes(), "embed.php").expect("compiles");
    let mut ctx = engine.context();
    ctx.capture_output();
    let r = ctx.run(&prog);
    (r, String::from_utf8_lossy(&ctx.take_output()).into_owned())
}

#[test]
fn runs_a_script_and_captures_output() {
    let (r, out) = run("<?php $a = 2; echo $a * 21, \"\\n\";");
    assert_eq!(r, Ok(()));
    assert_eq!(out, "42\n");
}

#[test]
fn parse_error_is_an_err_not_a_panic() {
    let engine = Engine::new();
    match engine.compile(b"<?php echo 1", "bad.php") {
        Err(Error::Parse { line, .. }) => assert_eq!(line, 1),
        Err(other) => panic!("unexpected error {other:?}"),
        Ok(_) => panic!("compiled invalid code"),
    }
}

#[test]
fn uncaught_error_is_an_err() {
    let (r, out) = run("<?php echo intdiv(1, 0);");
    assert!(matches!(r, Err(Error::Fatal(ref m)) if m.starts_with("Uncaught DivisionByZeroError: Division by zero")), "{r:?}");
    assert!(out.contains("Fatal error: Uncaught DivisionByZeroError"), "{out}");
}

#[test]
fn one_program_many_contexts_on_many_threads() {
    let engine = Engine::new();
    let src = "<?php function fib($n) { return $n < 2 ? $n : fib($n-1) + fib($n-2); } echo fib(20);";
    let prog = engine.compile(src.as_bytes(), "fib.php").expect("compiles");
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let prog = prog.clone();
            let engine = engine.clone();
            std::thread::spawn(move || {
                let mut ctx = engine.context();
                ctx.capture_output();
                for _ in 0..3 {
                    ctx.run(&prog).expect("runs");
                }
                ctx.take_output()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().expect("thread"), b"676567656765");
    }
}

#[test]
fn interrupt_stops_an_infinite_loop() {
    let engine = Engine::new();
    let prog = engine.compile(b"<?php while (true) { }", "spin.php").expect("compiles");
    let mut ctx = engine.context();
    let flag = ctx.interrupt_handle();
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    assert_eq!(ctx.run(&prog), Err(Error::Cancelled));
    t.join().expect("thread");
}

#[test]
fn memory_limit_ends_the_run_and_the_context_stays_usable() {
    let engine = Engine::new().with_memory_limit(8 * 1024 * 1024);
    let hog = engine.compile(b"<?php $s = ''; while (true) { $s .= str_repeat('x', 4096); }", "hog.php").expect("compiles");
    let ok = engine.compile(b"<?php echo strlen(str_repeat('y', 1000));", "ok.php").expect("compiles");
    let mut ctx = engine.context();
    ctx.capture_output();
    match ctx.run(&hog) {
        Err(Error::Fatal(m)) => assert!(m.starts_with("Allowed memory size of 8388608 bytes exhausted"), "{m}"),
        other => panic!("expected the memory-limit fatal error, got {other:?}"),
    }
    let _ = ctx.take_output();
    ctx.run(&ok).expect("runs after the fatal error");
    assert_eq!(ctx.take_output(), b"1000");
}

#[test]
fn deep_data_on_a_small_stack_ends_with_a_fatal_error_not_an_overflow() {
    let engine = Engine::new().with_memory_limit(1 << 30);
    let src = b"<?php $a = []; $b = [];
        for ($i = 0; $i < 300000; $i++) { $a = [$a]; $b = [$b]; }
        var_dump($a == $b);";
    let prog = engine.compile(src, "deep.php").expect("compiles");
    let r = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            let mut ctx = engine.context();
            ctx.capture_output();
            ctx.run(&prog)
        })
        .expect("spawn")
        .join()
        .expect("no stack overflow");
    match r {
        Err(Error::Fatal(m)) => assert!(m.starts_with("Maximum call stack size of"), "{m}"),
        other => panic!("expected the stack-size fatal error, got {other:?}"),
    }
}

#[test]
fn preg_state_belongs_to_the_context() {
    // preg_last_error() and the compiled-pattern cache are per context:
    // one context's failed match is not another's, a new run starts with
    // no error, and contexts on other threads match with their own state.
    let engine = Engine::new();
    let fail = engine.compile(b"<?php var_dump(preg_match('/(?:\\D+|<\\d+>)*[!?]/', 'foobar foobar foobar'), preg_last_error());", "a.php").expect("compiles");
    let check = engine.compile(b"<?php echo preg_last_error(), ' ', preg_replace('/(\\w)(\\w*)/', '$2$1', 'hello world'), \"\\n\";", "b.php").expect("compiles");
    let mut a = engine.context();
    a.capture_output();
    let mut b = engine.context();
    b.capture_output();
    a.run(&fail).expect("runs");
    b.run(&check).expect("runs");
    assert_eq!(String::from_utf8_lossy(&a.take_output()), "bool(false)\nint(2)\n");
    assert_eq!(String::from_utf8_lossy(&b.take_output()), "0 elloh orldw\n");
    a.run(&check).expect("runs");
    assert_eq!(String::from_utf8_lossy(&a.take_output()), "0 elloh orldw\n");
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let (engine, check) = (engine.clone(), check.clone());
            std::thread::spawn(move || {
                let mut ctx = engine.context();
                ctx.capture_output();
                for _ in 0..3 {
                    ctx.run(&check).expect("runs");
                }
                ctx.take_output()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().expect("thread"), b"0 elloh orldw\n".repeat(3));
    }
}
