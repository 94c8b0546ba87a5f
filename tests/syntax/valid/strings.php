<?php
$s = 'single';
$s = 'it\'s \\ back\slash \n not newline $x {$y}';
$s = '';
$s = "";
$s = "double";
$s = "escapes: \n \t \r \v \e \f \\ \$ \" \0 \7 \101 \1011 \x41 \x4 \xZ \u{41} \u{1F600} \u{00000041} \q \' \{";
$s = "multi
line";
$s = "simple $var and $var[0] and $var[-1] and $var[key] and $var[$idx] and $obj->prop and $obj?->prop";
$s = "$var[01] $var[0x1] $var[-0] $var[9223372036854775808]";
$s = "braces {$var} {$var['key']} {$obj->prop->deep} {$obj->method()} {$arr[1][2]} {$obj?->a} {${'dyn'}}";
$s = "dollar brace ${var} ${var['k']} ${var[1]} ${expr . 'x'}";
$s = "edge $ alone, \{$var}, $1, {$var}s, $var->, $var->1";
$s = "static {$obj::$static} {$f()}";
$s = "$var$var2 $var.$var2 {$var}{$var2}";
$s = "a" . 'b' . "c";
$s = b"binary prefix";
$s = b'binary single';
$s = <<<EOT
heredoc $var {$obj->prop} ${name}
  keeps "quotes" and 'quotes' \t \x41 \u{42}
EOT;
$s = <<<"EOT"
quoted heredoc $var
EOT;
$s = <<<'EOT'
nowdoc $var {$var} \n \t
EOT;
$s = <<<EOT
EOT;
$s = <<<'EOT'
EOT;
$s = <<<EOT
    indented closing
      keeps relative
    $var end
    EOT;
$s = <<<'EOT'
	tab indented
	EOT;
$s = <<<EOT
  a
 
  b
  EOT . 'concat';
$arr = [<<<A
one
A, <<<B
two
B];
f(<<<EOT
arg
EOT);
$s = <<<EOT
EOT_NOT_END
 EOTX
EOT;
$s = <<<EOT
line with \$escaped and \\backslash and {\$not}
EOT;
$s = <<<EOT
$var[key] $var[0] {$var['k']}
EOT;
$s = "\\";
$s = '\\';
$s = "{$a[<<<K
k
K]}";
