//! Unit tests: one per spec rule and per naming/validation rule.

use crate::expand::{expand_body, instances, Instance};
use crate::model::{self, Def, CONCRETE};
use crate::operand::Smart;
use quote::ToTokens;

fn def(src: &str) -> Def {
    let file: crate::parse::DefFile = syn::parse_str(src).expect("parses");
    model::check(file).unwrap_or_else(|d| panic!("check failed: {}", d.message))
}

fn names(src: &str) -> Vec<String> {
    let d = def(src);
    d.handlers.iter().enumerate().flat_map(|(i, h)| instances(h, i)).map(|i| i.name).collect()
}

fn err(src: &str) -> String {
    match crate::generate(src, "handlers.def") {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

/// Body of the named instance, as compact tokens.
fn body(src: &str, inst: &str) -> String {
    let d = def(src);
    for (hi, h) in d.handlers.iter().enumerate() {
        for i in instances(h, hi) {
            if i.name == inst {
                let b = expand_body(h, &i, None).unwrap_or_else(|e| panic!("{}", e.message));
                return b.to_token_stream().to_string();
            }
        }
    }
    panic!("no instance {inst}")
}

const BIN: &str = "(op1: CONST | TMPVAR | CV, op2: CONST | TMPVAR | CV) -> TMP { next!() }";

fn bin(spec: &str) -> String {
    format!("/// r\n{spec}\nhandler ADD{BIN}")
}

#[test]
fn names_follow_zend() {
    let src = "
        /// echo
        handler ECHO(op1: CONST | CV) { next!() }
        /// goto
        handler JMP(op1: JMP_ADDR) { next!() }
        /// return
        handler RETURN(op1: CONST) { next!() }
        /// init
        handler INIT(op1: UNUSED, op2: CONST) { next!() }
        /// call
        handler CALL(op1: NUM, op2: CV) { next!() }
    ";
    assert_eq!(
        names(src),
        ["ECHO_SPEC_CONST", "ECHO_SPEC_CV", "JMP_SPEC", "RETURN_SPEC_CONST", "INIT_SPEC_UNUSED_CONST", "CALL_SPEC_CV"]
    );
}

#[test]
fn every_listed_kind_is_one_instance() {
    assert_eq!(names(&bin("")).len(), 9);
    assert!(model_err("/// x\nhandler X(op1: TMP | VAR | TMPVARCV) { next!() }").is_some());
    assert_eq!(names("/// x\nhandler X(op1: CONST | TMP | VAR | CV | UNUSED) { next!() }").len(), 5);
    assert_eq!(names("/// x\nhandler X(op1: ANY, op2: TMPVARCV) { next!() }"), ["X_SPEC_ANY_TMPVARCV"]);
}

fn model_err(src: &str) -> Option<String> {
    let file: crate::parse::DefFile = syn::parse_str(src).ok()?;
    model::check(file).err().map(|d| d.message)
}

#[test]
fn overlapping_and_unknown_kinds_are_rejected() {
    assert!(err("/// x\nhandler X(op1: TMP | VAR | TMPVARCV) { next!() }").contains("`TMPVARCV` overlaps `TMP`"));
    assert!(err("/// x\nhandler X(op1: ANY | CONST) { next!() }").contains("`CONST` overlaps `ANY`"));
    assert!(err("/// x\nhandler X(op1: CV | CV) { next!() }").contains("listed twice"));
    assert!(err("/// x\nhandler X(op1: JMP_ADDR | CV) { next!() }").contains("must be the only kind"));
    // NUM may sit beside CONST only (SEND_*: a number or a parameter name).
    assert!(err("/// x\nhandler X(op2: NUM | CV) { next!() }").contains("must be the only kind"));
    assert_eq!(names("/// x\nhandler X(op1: CV, op2: NUM | CONST) { next!() }"), ["X_SPEC_CV", "X_SPEC_CV_CONST"]);
    assert_eq!(err("/// x\nhandler X(op1: FOO) { next!() }").split(':').take(3).collect::<Vec<_>>(), ["handlers.def", "2", "16"]);
}

#[test]
fn commutative_keeps_rank_op1_ge_rank_op2() {
    assert_eq!(
        names(&bin("#[spec(commutative)]")),
        [
            "ADD_SPEC_CONST_CONST",
            "ADD_SPEC_TMPVAR_CONST",
            "ADD_SPEC_TMPVAR_TMPVAR",
            "ADD_SPEC_CV_CONST",
            "ADD_SPEC_CV_TMPVAR",
            "ADD_SPEC_CV_CV"
        ]
    );
}

#[test]
fn commutative_tmpvarcv_keeps_what_a_swapped_lookup_needs() {
    // (CV, CV) is served by (TMPVARCV, CV): ranking TMPVARCV as 1 would lose it.
    let n = names("/// x\n#[spec(commutative)]\nhandler X(op1: CONST | TMPVARCV, op2: CONST | TMPVAR | CV) -> TMP { next!() }");
    assert_eq!(n, ["X_SPEC_CONST_CONST", "X_SPEC_TMPVARCV_CONST", "X_SPEC_TMPVARCV_TMPVAR", "X_SPEC_TMPVARCV_CV"]);
}

#[test]
fn commutative_needs_matching_value_operands() {
    assert!(err("/// x\n#[spec(commutative)]\nhandler X(op1: CONST | CV, op2: CONST) { next!() }")
        .contains("same Zend kinds"));
    assert!(err("/// x\n#[spec(commutative)]\nhandler X(op1: ANY, op2: ANY) { next!() }").contains("commutative"));
}

#[test]
fn no_const_const_skips_only_const_const() {
    let n = names(&bin("#[spec(no_const_const)]"));
    assert_eq!(n.len(), 8);
    assert!(!n.contains(&"ADD_SPEC_CONST_CONST".to_string()));
    let n = names(&bin("#[spec(commutative, no_const_const)]"));
    assert_eq!(n.len(), 5);
    // ANY with CONST still serves (TMP, CONST): kept.
    assert_eq!(names("/// x\n#[spec(no_const_const)]\nhandler X(op1: ANY, op2: CONST) { next!() }").len(), 1);
}

const SMART: &str = "/// r\n#[spec(smart_branch)]\nhandler IS_SMALLER(op1: TMPVARCV, op2: CONST) -> TMP { branch!(true) }";

#[test]
fn smart_branch_makes_plain_jmpz_jmpnz() {
    assert_eq!(
        names(SMART),
        ["IS_SMALLER_SPEC_TMPVARCV_CONST", "IS_SMALLER_SPEC_TMPVARCV_CONST_JMPZ", "IS_SMALLER_SPEC_TMPVARCV_CONST_JMPNZ"]
    );
    let plain = body(SMART, "IS_SMALLER_SPEC_TMPVARCV_CONST");
    assert!(plain.contains("* operand :: result (ip , fp) = Zval :: bool (__c)"), "{plain}");
    assert!(plain.contains("break 'body (ip . add (1) , fp)"));
    let z = body(SMART, "IS_SMALLER_SPEC_TMPVARCV_CONST_JMPZ");
    assert!(!z.contains("result"), "smart instances do not write the result: {z}");
    assert!(z.contains("if __c { break 'body (ip . add (2) , fp) } else { let __t : * const Op = operand :: jmp_addr_2 (ip . add (1))"), "{z}");
    let nz = body(SMART, "IS_SMALLER_SPEC_TMPVARCV_CONST_JMPNZ");
    assert!(nz.contains("if __c { let __t"), "{nz}");
}

#[test]
fn smart_branch_rules() {
    assert!(err("/// x\nhandler X(op1: CV) -> TMP { branch!(true) }").contains("`branch!` needs `#[spec(smart_branch)]`"));
    assert!(err("/// x\n#[spec(smart_branch)]\nhandler X(op1: CV) -> TMP { next!() }").contains("`next!()` in a smart_branch"));
    assert!(err("/// x\n#[spec(smart_branch)]\nhandler X(op1: CV) -> TMP { leave!(x) }").contains("never uses `branch!`"));
    assert!(err("/// x\n#[spec(smart_branch)]\nhandler X(op1: CV) { branch!(true) }").contains("needs a result"));
}

const RETVAL: &str = "/// r\n#[spec(retval)]\nhandler ASSIGN(op1: CV, op2: TMP) -> TMP { if is_result_used!() { set_result!(x) } next!() }";

#[test]
fn retval_makes_unused_and_used() {
    assert_eq!(names(RETVAL), ["ASSIGN_SPEC_CV_TMP_RETVAL_UNUSED", "ASSIGN_SPEC_CV_TMP_RETVAL_USED"]);
    let u = body(RETVAL, "ASSIGN_SPEC_CV_TMP_RETVAL_UNUSED");
    assert!(u.contains("if false { { let __v : Zval = x ; __v . ptr_dtor () ; } }"), "{u}");
    let used = body(RETVAL, "ASSIGN_SPEC_CV_TMP_RETVAL_USED");
    assert!(used.contains("if true { * operand :: result (ip , fp) = x }"), "{used}");
    assert!(err("/// x\nhandler X(op1: CV) -> TMP { if is_result_used!() {} next!() }").contains("needs `#[spec(retval)]`"));
    assert!(err("/// x\n#[spec(retval)]\nhandler X(op1: CV) { next!() }").contains("`retval` needs a result"));
}

const OP_DATA: &str = "/// r\n#[spec(op_data = CONST | TMPVAR, retval)]\nhandler ASSIGN_DIM(op1: CV, op2: CONST) -> TMP { let v = read!(op_data); free!(op_data); next!() }";

#[test]
fn op_data_makes_one_instance_per_kind_and_skips_it() {
    assert_eq!(
        names(OP_DATA),
        [
            "ASSIGN_DIM_SPEC_CV_CONST_OP_DATA_CONST_RETVAL_UNUSED",
            "ASSIGN_DIM_SPEC_CV_CONST_OP_DATA_CONST_RETVAL_USED",
            "ASSIGN_DIM_SPEC_CV_CONST_OP_DATA_TMPVAR_RETVAL_UNUSED",
            "ASSIGN_DIM_SPEC_CV_CONST_OP_DATA_TMPVAR_RETVAL_USED"
        ]
    );
    let b = body(OP_DATA, "ASSIGN_DIM_SPEC_CV_CONST_OP_DATA_TMPVAR_RETVAL_USED");
    assert!(b.contains("operand :: var_deref_od (ip , fp)"), "{b}");
    assert!(b.contains("operand :: free_od (ip , fp)"), "{b}");
    assert!(b.contains("ip . add (2)"), "{b}");
    let c = body(OP_DATA, "ASSIGN_DIM_SPEC_CV_CONST_OP_DATA_CONST_RETVAL_USED");
    assert!(c.contains("operand :: const_od (ip)") && !c.contains("free"), "{c}");
}

#[test]
fn operand_table_rows() {
    let row = |k: &str| {
        let src = format!("/// r\nhandler X(op1: {k}) {{ read!(op1); read_raw!(op1); read_deref!(op1); free!(op1); next!() }}");
        body(&src, &format!("X_SPEC_{k}"))
    };
    assert_eq!(row("CONST"), "{ operand :: const_1 (ip) ; operand :: const_1 (ip) ; operand :: const_1 (ip) ; break 'body (ip . add (1) , fp) }");
    assert_eq!(row("TMP"), "{ operand :: tmp_1 (ip , fp) ; operand :: slot_1 (ip , fp) as * const Zval ; operand :: tmp_1 (ip , fp) ; operand :: free_1 (ip , fp) ; break 'body (ip . add (1) , fp) }");
    assert_eq!(row("VAR"), "{ operand :: var_deref_1 (ip , fp) ; operand :: slot_1 (ip , fp) as * const Zval ; operand :: var_deref_1 (ip , fp) ; operand :: free_1 (ip , fp) ; break 'body (ip . add (1) , fp) }");
    assert_eq!(row("CV"), "{ operand :: cv_read_1 (ip , fp , vm) ; operand :: slot_1 (ip , fp) as * const Zval ; operand :: cv_deref_1 (ip , fp) ; break 'body (ip . add (1) , fp) }");
    assert_eq!(row("TMPVARCV"), "{ operand :: tmpvarcv_read_1 (ip , fp , vm) ; operand :: slot_1 (ip , fp) as * const Zval ; operand :: var_deref_1 (ip , fp) ; operand :: free_tmpvar_1 (ip , fp) ; break 'body (ip . add (1) , fp) }");
    assert_eq!(row("ANY"), "{ operand :: any_read_1 (ip , fp , vm) ; operand :: any_raw_1 (ip , fp) ; operand :: any_deref_1 (ip , fp) ; operand :: free_any_1 (ip , fp) ; break 'body (ip . add (1) , fp) }");
    let w = "/// r\nhandler X(op1: VAR | CV) { write!(op1); next!() }";
    assert!(body(w, "X_SPEC_VAR").contains("operand :: var_ptr_1 (ip , fp)"));
    assert!(body(w, "X_SPEC_CV").contains("operand :: slot_1 (ip , fp)"));
    let w = "/// r\nhandler X(op1: ANY) { write!(op1); next!() }";
    assert!(body(w, "X_SPEC_ANY").contains("operand :: any_write_1 (ip , fp)"));
    for k in ["TMP", "TMPVAR", "TMPVARCV", "CONST"] {
        let e = err(&format!("/// r\nhandler X(op1: {k}) {{ write!(op1); next!() }}"));
        assert!(e.contains(&format!("not allowed for a {k} operand")), "{e}");
    }
    assert!(err("/// r\nhandler X() { read!(op1); next!() }").contains("declares no op1"));
    assert!(err("/// r\nhandler X(op1: CONST) { slot!(op1); next!() }").contains("have a slot"));
    assert!(err("/// r\nhandler X(op1: JMP_ADDR) { read!(op1); next!() }").contains("use `jmp_addr!`"));
    assert!(err("/// r\nhandler X(op1: CV) { jmp_addr!(op1); next!() }").contains("needs a JMP_ADDR operand"));
    assert!(body("/// r\nhandler X(op2: NUM) { num!(op2); next!() }", "X_SPEC").contains("(* ip) . op2"));
}

#[test]
fn is_folds_to_literals() {
    let src = "/// r\nhandler X(op1: CONST | TMPVAR | CV) { let a = is!(op1, CONST); let b = is!(op1, TMPVAR); let c = is!(op1, TMPVARCV); next!() }";
    assert!(body(src, "X_SPEC_CONST").contains("let a = true ; let b = false ; let c = false ;"));
    assert!(body(src, "X_SPEC_TMPVAR").contains("let a = false ; let b = true ; let c = true ;"));
    assert!(body(src, "X_SPEC_CV").contains("let a = false ; let b = false ; let c = true ;"));
    assert!(err("/// r\nhandler X(op1: TMPVARCV) { is!(op1, CV); next!() }").contains("ambiguous"));
}

#[test]
fn control_operations() {
    let src = "/// r\nhandler X(op1: CV, op2: JMP_ADDR) { if c { jump!(op2) } if d { goto!(a, b) } leave!(r) }";
    let b = body(src, "X_SPEC_CV");
    assert!(b.contains("let __t : * const Op = operand :: jmp_addr_2 (ip) ; if dispatch :: check_interrupt (vm , ip , __t) { return dispatch :: interrupted (__t , fp , vm) ; } break 'body (__t , fp)"), "{b}");
    assert!(b.contains("break 'body (a , b)"));
    assert!(b.contains("return r"));
    assert!(err("/// r\nhandler X(op1: CV) { goto!(a); }").contains("two expressions"));
    assert!(err("/// r\nhandler X(op1: CV) { result!(); next!() }").contains("declares no result"));
}

#[test]
fn slow_frees_tmp_var_inputs_on_throw() {
    let src = "/// r\n#[spec(op_data = TMP | CV)]\nhandler X(op1: CONST | TMPVAR, op2: CV | VAR) { let v = slow!(f(a, b)); slow_owned!(g()); next!() }";
    let b = body(src, "X_SPEC_TMPVAR_VAR_OP_DATA_TMP");
    assert!(b.contains("(* (fp as * mut Frame)) . opline = ip ; f (& mut * vm , fp , ip , a , b)"), "{b}");
    assert!(b.contains("Err (_) => { operand :: free_1 (ip , fp) ; operand :: free_2 (ip , fp) ; operand :: free_od (ip , fp) ; break 'body (dispatch :: exception_op (vm) , fp) }"), "{b}");
    assert!(b.contains("g (& mut * vm , fp , ip) } { Ok (__v) => __v , Err (_) => { break 'body"), "slow_owned frees nothing: {b}");
    let c = body(src, "X_SPEC_CONST_CV_OP_DATA_CV");
    assert!(c.contains("Err (_) => { break 'body (dispatch :: exception_op (vm) , fp) }"), "{c}");
    let src = src.replace("CONST | TMPVAR", "TMPVARCV");
    assert!(body(&src, "X_SPEC_TMPVARCV_CV_OP_DATA_CV").contains("Err (_) => { operand :: free_tmpvar_1"));
    let src = src.replace("TMPVARCV", "ANY");
    assert!(body(&src, "X_SPEC_ANY_CV_OP_DATA_CV").contains("Err (_) => { operand :: free_any_1"));
    assert!(err("/// r\nhandler X(op1: CV) { slow!(x); next!() }").contains("takes a helper call"));
}

#[test]
fn free_before_slow_is_an_error_only_on_a_path_reaching_it() {
    // The fast path frees and leaves: fine.
    let ok = "/// r\nhandler X(op1: TMPVAR) -> TMP { if c { free!(op1); next!() } match d { 1 => { free!(op1); next!() } _ => {} } let v = slow!(f()); free!(op1); next!() }";
    body(ok, "X_SPEC_TMPVAR");
    // A free that falls through into the slow! path: double free on throw.
    let e = err("/// r\nhandler X(op1: TMPVAR) -> TMP { if c { free!(op1); } let v = slow!(f()); next!() }");
    assert!(e.starts_with("handlers.def:2:40: `free!(op1)` runs before the `slow!` at line 2"), "{e}");
    // In an instance where free! is nothing (CV), there is nothing to double free.
    body("/// r\nhandler X(op1: CV) -> TMP { free!(op1); let v = slow!(f()); next!() }", "X_SPEC_CV");
    // slow_owned! frees nothing.
    body("/// r\nhandler X(op1: TMP) -> TMP { free!(op1); let v = slow_owned!(f()); next!() }", "X_SPEC_TMP");
}

#[test]
fn operations_inside_other_macros_are_expanded() {
    let b = body("/// r\nhandler X(op1: CV) { debug_assert!(read!(op1).is_null(), \"x\"); next!() }", "X_SPEC_CV");
    assert!(b.contains("debug_assert ! ((operand :: cv_read_1 (ip , fp , vm)) . is_null () , \"x\")"), "{b}");
    // std's write! with a formatter is not an operation.
    let b = body("/// r\nhandler X(op1: CV) { write!(f, \"{}\", 1); next!() }", "X_SPEC_CV");
    assert!(b.contains("write ! (f , \"{}\" , 1)"), "{b}");
}

#[test]
fn handlers_need_docs() {
    assert_eq!(err("handler NOP() { next!() }"), "handlers.def:1:9: handler `NOP` has no doc comment: its first `///` line states the semantics");
    assert!(err("opcode OP_DATA(op1: CV);").contains("opcode `OP_DATA` has no doc comment"));
}

#[test]
fn attributes_and_items_are_checked() {
    assert!(err("/// x\n#[spec(fast)]\nhandler X() { next!() }").contains("unknown spec rule `fast`"));
    assert!(err("/// x\n#[spec(retval, retval)]\nhandler X() -> TMP { next!() }").contains("given twice"));
    assert!(err("/// x\n#[inline]\nhandler X() { next!() }").contains("unknown attribute"));
    assert!(err("/// x\n#[hot]\n#[cold]\nhandler X() { next!() }").contains("either"));
    assert!(err("/// x\nhandler add() { next!() }").contains("UPPER_SNAKE"));
    assert!(err("/// x\nhandler X() -> TMP | CV { next!() }").contains("result must be one of"));
    assert!(err("/// x\nhandler X(op3: CV) { next!() }").contains("unknown operand `op3`"));
    assert!(err("/// x\nhandler X() { next!() }\n/// y\nhandler X() { next!() }").contains("already defined at line 2"));
    assert!(err("").contains("defines no opcode"));
}

/// `lookup` is total: after the engine's swap, every concrete operand pair an
/// opcode accepts (except CONST,CONST under no_const_const) has exactly one instance.
#[test]
fn lookup_is_total_and_unambiguous() {
    let srcs = [
        bin("#[spec(commutative)]"),
        bin("#[spec(commutative, no_const_const)]"),
        "/// x\n#[spec(commutative)]\nhandler X(op1: CONST | TMPVARCV, op2: CONST | TMPVAR | CV) -> TMP { next!() }".into(),
        "/// x\n#[spec(commutative)]\nhandler X(op1: CONST | TMP | VAR | CV, op2: CONST | TMPVARCV) -> TMP { next!() }".into(),
        "/// x\nhandler X(op1: ANY, op2: CONST | TMPVARCV) -> TMP { next!() }".into(),
    ];
    for src in srcs {
        let d = def(&src);
        let h = &d.handlers[0];
        let insts: Vec<Instance> = instances(h, 0);
        for c1 in CONCRETE.iter().filter(|c| h.op1.cover() & **c != 0) {
            for c2 in CONCRETE.iter().filter(|c| h.op2.cover() & **c != 0) {
                if h.spec.commutative && model::rank(*c1) < model::rank(*c2) {
                    continue;
                }
                if h.spec.no_const_const && *c1 == model::CONST && *c2 == model::CONST {
                    continue;
                }
                let n = insts.iter().filter(|i| i.op1.cover() & c1 != 0 && i.op2.cover() & c2 != 0).count();
                assert_eq!(n, 1, "{src}: ({c1}, {c2}) served by {n} instances");
            }
        }
    }
}

#[test]
fn spec_suffix_order() {
    let i = Instance {
        handler: 0,
        name: String::new(),
        op1: model::Kind::Cv,
        op2: model::Kind::Const,
        op_data: Some(model::Kind::Tmp),
        retval_used: Some(true),
        smart: Some(Smart::Jmpnz),
    };
    assert_eq!(i.extras(), ["OP_DATA_TMP", "RETVAL_USED", "JMPNZ"]);
}

#[test]
fn bad_input_never_panics() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expand");
    for name in ["smart_branch.def", "op_data.def", "jmp_addr.def", "items.def"] {
        let src = std::fs::read_to_string(dir.join(name)).unwrap();
        for (cut, _) in src.char_indices() {
            let _ = crate::generate(&src[..cut], "handlers.def");
        }
    }
}

#[test]
fn syntax_errors_have_locations() {
    let e = err("/// x\nhandler X(op1: CV) {\n    next!(\n}");
    assert!(e.starts_with("handlers.def:"), "{e}");
    let e = err("/// x\nhandler X(op1 CV) { next!() }");
    assert!(e.starts_with("handlers.def:2:15: expected `:`"), "{e}");
}
