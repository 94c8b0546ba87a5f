//! Formatting with prettyplease: deterministic, no rustfmt binary needed.

use crate::Diag;
use proc_macro2::{Span, TokenStream};

/// Formats `items` as a file body, after `header` (comments are not in the tree).
pub fn file(header: &str, items: TokenStream) -> Result<String, Diag> {
    let file: syn::File = syn::parse2(items)
        .map_err(|e| Diag::new(Span::call_site(), format!("internal: generated code does not parse: {e}")))?;
    Ok(format!("{header}{}", prettyplease::unparse(&file)))
}
