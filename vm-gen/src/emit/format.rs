//! Formatting with prettyplease: deterministic, no rustfmt binary needed.

use crate::Diag;
use proc_macro2::{Span, TokenStream};

/// Formats `items` as a file body, after `header` (comments are not in the tree).
pub fn file(header: &str, items: TokenStream) -> Result<String, Diag> {
    let file: syn::File = syn::parse2(items)
        .map_err(|e| Diag::new(Span::call_site(), format!("internal: generated code does not parse: {e}")))?;
    Ok(format!("{header}{}", space_items(&prettyplease::unparse(&file))))
}

/// prettyplease puts top-level items on consecutive lines; a blank line
/// between them makes the generated files easier to read.
fn space_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut prev: Option<&str> = None;
    for line in text.lines() {
        if let Some(p) = prev {
            let top = |l: &str| !l.is_empty() && !l.starts_with(char::is_whitespace);
            let item_ended = top(p) && (p.ends_with('}') || p.ends_with(';'));
            let uses = p.starts_with("use ") && line.starts_with("use ");
            let closes = line.starts_with(['}', ')', ']']);
            if item_ended && top(line) && !closes && !uses {
                out.push('\n');
            }
        }
        out.push_str(line);
        out.push('\n');
        prev = Some(line);
    }
    out
}
