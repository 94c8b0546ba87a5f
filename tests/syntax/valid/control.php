<?php
if ($a) echo 1;
if ($a) { echo 1; } elseif ($b) { echo 2; } else if ($c) { echo 3; } else { echo 4; }
if ($a): echo 1; elseif ($b): echo 2; else: echo 3; endif;
if ($a): endif;
while ($i < 10) $i++;
while ($i < 10) { $i++; continue; }
while ($i < 10): $i++; endwhile;
do { $i--; } while ($i > 0);
do $i--; while ($i > 0);
for ($i = 0, $j = 0; $i < 10, $j < 5; $i++, $j++) { break; }
for (;;) { break 1; }
for ($i = 0; $i < 3; $i++): continue; endfor;
foreach ($arr as $v) {}
foreach ($arr as $k => $v) {}
foreach ($arr as &$v) {}
foreach ($arr as $k => &$v) {}
foreach ($arr as [$a, $b]) {}
foreach ($arr as $k => list($a, , $c)) {}
foreach ($arr as ['x' => $x, 'y' => &$y]) {}
foreach ($arr as $obj->prop) {}
foreach ($arr as $arr2['k']) {}
foreach ($arr as $v): endforeach;
foreach (gen() as $k => $v): echo $k; endforeach;
switch ($a) {
    case 1:
    case 2;
        echo 'x';
        break;
    case 'str':
        { echo 's'; }
        break;
    default:
        echo 'd';
}
switch ($a) {}
switch ($a) {;}
switch ($a): case 1: echo 1; break; default: echo 2; endswitch;
switch ($a): endswitch;
while (true) { switch ($a) { case 1: break 2; } }
$r = match ($a) {
    1, 2 => 'low',
    3, => 'mid',
    default => 'high',
};
$r = match (true) { $a > 1 => 1, default, => 0 };
$r = match ($a) { 'x' => throw new Exception('no') };
goto end;
echo 'skipped';
end:
label2: echo 'after';
try { f(); } catch (Exception $e) {} 
try { f(); } catch (A | B $e) { } catch (\C\D) { } finally { }
try { f(); } finally { echo 1; }
declare(ticks=1) { echo 1; }
declare(ticks=1): echo 2; enddeclare;
declare(ticks=1);
{ { echo 'nested block'; } }
;
return;
