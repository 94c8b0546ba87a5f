<?php
$r = match ($x) {
    1 => "a",
    ; 2 => "b",
};
