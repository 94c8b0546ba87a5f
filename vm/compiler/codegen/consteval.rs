//! `zend_eval_const_expr` for the elements of array literals: Zend folds
//! each element's expression tree in place before it tries the constant
//! array (`zend_try_ct_eval_array`), so `[true ? 1 : 2, null ?? 4]` is one
//! literal and a non-constant array's constant elements are literals too.
//! This evaluates without emitting anything.

use super::emit::Lit;
use super::{fold, Compiler};
use crate::compiler::ast::*;

impl Compiler {
    /// The value of `e` when Zend's constant-expression evaluation reduces
    /// it to a literal; `None` otherwise.
    pub(super) fn const_eval(&mut self, e: &Expr<'_>) -> Option<Lit> {
        Some(match &e.kind {
            ExprKind::Int(i) => Lit::Long(*i),
            ExprKind::Float(d) => Lit::Double(*d),
            ExprKind::String(s) => Lit::Str(s.to_vec()),
            ExprKind::Const(name) => self.const_value(name)?,
            ExprKind::MagicConst(m) if self.magic_const_is_runtime(*m) => return None,
            ExprKind::MagicConst(m) => match self.compile_magic_const(*m, e.line) {
                super::emit::Node::Const(l) => l,
                _ => return None,
            },
            ExprKind::Unary { op, expr } => {
                let v = self.const_eval(expr)?;
                match op {
                    UnaryOp::Not => Lit::Bool(!v.truthy()),
                    UnaryOp::BitNot => fold::bw_not(&v)?,
                    UnaryOp::Neg => fold::unary_pm(true, &v)?,
                    UnaryOp::Plus => fold::unary_pm(false, &v)?,
                }
            }
            ExprKind::Binary { op: op @ (BinaryOp::BoolAnd | BinaryOp::BoolOr), left, right } => {
                let (l, r) = (self.const_eval(left)?, self.const_eval(right)?);
                let or = *op == BinaryOp::BoolOr;
                if l.truthy() == or {
                    Lit::Bool(or)
                } else {
                    Lit::Bool(r.truthy())
                }
            }
            ExprKind::Binary { op, left, right } => {
                let (l, r) = (self.const_eval(left)?, self.const_eval(right)?);
                // `a > b` is `b < a` (binop_code gives the swapped opcode).
                let code = super::expr::binop_code(*op);
                if matches!(op, BinaryOp::Greater | BinaryOp::GreaterOrEqual) {
                    fold::binary(code, &r, &l)?
                } else {
                    fold::binary(code, &l, &r)?
                }
            }
            ExprKind::Ternary { cond, then, else_ } => {
                let c = self.const_eval(cond)?;
                match (c.truthy(), then) {
                    (true, None) => c,
                    (true, Some(t)) => self.const_eval(t)?,
                    (false, _) => self.const_eval(else_)?,
                }
            }
            ExprKind::Coalesce { left, right } => match self.const_eval(left)? {
                Lit::Null => self.const_eval(right)?,
                l => l,
            },
            ExprKind::Array(items) => self.const_eval_array(items)?,
            // `[1, 2][0]`: a present key of a constant array.
            ExprKind::Index { base, dim: Some(dim) } => {
                let Lit::Array(items) = self.const_eval(base)? else { return None };
                let k = fold::key_of(&self.const_eval(dim)?)?;
                items.into_iter().find(|(key, _)| *key == k)?.1
            }
            _ => return None,
        })
    }
}

impl Compiler {
    /// `zend_try_ct_eval_array`: the array literal as a constant, when
    /// every key and value is one (and nothing is by reference).
    pub(super) fn const_eval_array(&mut self, items: &[ArrayItem<'_>]) -> Option<Lit> {
        let mut out = Vec::new();
        for item in items.iter() {
            if item.by_ref {
                return None;
            }
            let v = self.const_eval(item.value)?;
            if item.spread {
                let Lit::Array(inner) = v else { return None };
                for (k, v) in inner {
                    let k = match k {
                        super::emit::Key::Int(_) => None,
                        s => Some(s),
                    };
                    fold::array_add(&mut out, k, v)?;
                }
                continue;
            }
            let k = match item.key {
                Some(k) => Some(fold::key_of(&self.const_eval(k)?)?),
                None => None,
            };
            fold::array_add(&mut out, k, v)?;
        }
        Some(Lit::Array(out))
    }
}
