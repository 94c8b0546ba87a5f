<?php
// token_get_all (plain and TOKEN_PARSE) over the scanner's corners.
$snips = [
    "<?php ", "", "plain html", "<?php", "<?", "<?=1?>", "a<?php\necho 1;?>b<?php }}} ) {", "<?php\r\n\$a;\r\n?>\r\nx",
    "<?php /* unterminated", "<?php // c ?>x", "<?php # c\n#[Attr] function f(){}", "<?php \$a->/**/class; \$a-> class; \$a\n->\nlist;",
    "<?php \$a = 08; \x01 \"abc", "<?php \"unterminated \$x", "<?php 'unterminated", "<?php (real) 1; (integer) (boolean) (binary) ( unset ) (array )",
    "<?php 0x1F 0b101 0o17 017 1_000 1e5 .5 1. 9999999999999999999 0x 1..2", "<?php b'x' b\"y\" B\"\$z\" b<<<E\nq\nE;",
    "<?php \$a?->b?->c; \$x ??= 1; \$y **= 2; \$z <=> \$w; 1 <> 2;",
    "<?php __halt_compiler(); trailing data\n<?php echo 1;", "<?php __HALT_COMPILER() ?>rest", "<?php __halt_compiler;",
    "<?php \"\$a[0] \$a[-1] \$a[x] \$a[\$b] \$a->b->c \$a?->b {\$a['x']} \${a} \${a[1]} \$\$ {\$ \\\$x\"",
    "<?php <<<EOT\n  \$a\n  {\$b}\n  EOT;\n<<<'X'\n  raw \$a\n X;\n<<<\"Q\"\nq\nQ;\n<<<E\n\nE;",
    "<?php `ls \$x -la`; yield from foo(); yield\nfrom \$x; yield fromage;",
    "<?php enum Foo {} enum extends; enum implements; enum(); readonly class A {} readonly(); \$x = enum;",
    "<?php fn&(\$x) => \$x; function &f() {} \$a & \$b; \$a &\n\$b; \$c & ...\$d; A&B",
    "<?php namespace\\Foo; \\Foo; Foo\\Bar\\Baz; Foo \\ Bar; namespace Foo;",
    "<?php exit; die(); __LINE__ __FILE__ __DIR__ __CLASS__ __TRAIT__ __METHOD__ __FUNCTION__ __NAMESPACE__",
    "<?php\n\n\n/** doc */\n/**/\n/***/\n/** */ \$x;",
    "<?php \$a = \"multi\nline\n\$x\nstring\";\n\$b;",
];
$plain = [
    // Lone CRs end lines and comments; a backslash does not hide a newline
    // from the closing label; a label that ends the input is body text.
    "<?php\r\$a;\r// c\r\$b; # d\r\n\$c;", "<?php <<<E\na\\\nE;\n", "<?php <<<E\nx\nE",
    // A close tag keeps the states below it; after __halt_compiler the rest is one token.
    "<?php \"\${ ?>html<?php } rest \" \$x;", "<?php __halt_compiler() \"\$a->b\" more", "<?php __halt_compiler ?>html<?php x",
    "<?php \"\$a[\0]\" \"\$a[12abc]\" \"\$a[0x1f]\" \"\$a[0x]\" \"\$a[", "<?php \$a->#[x]\ny;",
];
foreach (array_merge($snips, $plain) as $n => $code) {
    echo "== ", json_encode($code), "\n";
    foreach ($n < count($snips) ? [0, TOKEN_PARSE] : [0] as $flags) {
        try {
            foreach (token_get_all($code, $flags) as $t) {
                echo is_array($t) ? token_name($t[0]) . ' ' . json_encode($t[1]) . ' ' . $t[2] : json_encode($t), "\n";
            }
        } catch (ParseError $e) {
            echo "ParseError: ", $e->getMessage(), " @", $e->getLine(), "\n";
        }
    }
}

// token_name and the constants.
var_dump(token_name(T_STRING), token_name(T_DOUBLE_COLON), token_name(T_PAAMAYIM_NEKUDOTAYIM), token_name(59), token_name(9999));
var_dump(T_OPEN_TAG, T_BAD_CHARACTER, T_AMPERSAND_FOLLOWED_BY_VAR_OR_VARARG, TOKEN_PARSE);

// PhpToken.
$toks = PhpToken::tokenize("<?php echo \$a . 'x'; // hi\n");
foreach ($toks as $t) {
    echo $t->id, ' ', json_encode($t->text), ' ', $t->line, ' ', $t->pos, ' ', var_export($t->getTokenName(), true), ' ', var_export($t->isIgnorable(), true), ' ', $t, "\n";
}
$t = $toks[1];
var_dump($t->is(T_ECHO), $t->is('echo'), $t->is([T_STRING, 'echo']), $t->is([]), $t->is('ECHO'));
try {
    $t->is(1.5);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
try {
    $t->is([T_ECHO + 1, null]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(new PhpToken(T_STRING, 'foo'), new PhpToken(59, ';', 3, 7));
var_dump((new PhpToken(10000, 'x'))->getTokenName(), (new PhpToken(400, '??'))->getTokenName());
var_dump($toks[0] instanceof Stringable);

// Subclasses get their own class and keep their properties.
class MyToken extends PhpToken {
    public $extra = 'e';
    public function isKeyword(): bool { return $this->id !== T_STRING; }
}
foreach (MyToken::tokenize('<?php if ($x) return foo();') as $t) {
    echo get_class($t), ' ', $t->getTokenName(), ' ', json_encode($t->text), ' ', $t->extra, "\n";
}
abstract class AbstractToken extends PhpToken {}
try {
    AbstractToken::tokenize('<?php');
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
try {
    PhpToken::tokenize('<?php if (', TOKEN_PARSE);
} catch (ParseError $e) {
    echo get_class($e), ': ', $e->getMessage(), ' line ', $e->getLine(), "\n";
}
var_dump(PhpToken::tokenize(''));
