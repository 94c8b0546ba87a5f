<?php
echo __COMPILER_HALT_OFFSET__;
$data = file_get_contents(__FILE__, false, null, __COMPILER_HALT_OFFSET__);
__halt_compiler();
this is raw data: } { ( "unterminated
<?php garbage ?> $%^&*
