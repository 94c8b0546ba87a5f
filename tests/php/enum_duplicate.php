<?php
enum E: string { const P = 'a'; case A = 'a'; case B = self::P; }
var_dump(E::cases());
var_dump(E::tryFrom('a'));
