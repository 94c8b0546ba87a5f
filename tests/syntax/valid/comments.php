<?php
// line comment
# hash comment
/* block
   comment */
/** doc comment */
function documented() {}
$a = 1; // trailing
$b = /* inline */ 2;
$c = 3 # hash trailing
;
#[Attr] // attribute, not a comment
function attributed() {}
#notattr
$d = 4;
